// tumble-cli's argument parser (demo/cli/args.h): exact parse results and exact error messages,
// on a spec shaped like `sim`'s.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "args.h"

using namespace tumble;
using namespace tumble::cli;
using Values = std::vector<std::string>;

namespace {

constexpr Positional kPositionals[] = {{.name = "SCENE", .help = "a scene"}};
constexpr Flag kFlags[] = {
    {.name = "--steps",
     .metavar = "N",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 100000000,
     .defaultValue = "600",
     .help = "steps to run"},
    {.name = "--set",
     .metavar = "key=value",
     .kind = ValueKind::String,
     .repeated = true,
     .help = "change a setting"},
    {.name = "--json", .help = "print JSON"},
    {.name = "--dump", .metavar = "FILE", .kind = ValueKind::String, .help = "write the state"},
    {.name = "--churn", .metavar = "SEED", .kind = ValueKind::Unsigned, .help = "the long run"},
};
constexpr CommandSpec kSpec{.name = "sim",
                            .positionals = kPositionals,
                            .flags = kFlags,
                            .description = "Runs a scene.",
                            .epilogue = "Exit status: 0 or 1."};

Expected<ParsedArgs> parse(const Values& args) {
  return parseArgs(kSpec, args);
}

std::string errorOf(const Values& args) {
  const auto parsed = parse(args);
  REQUIRE_FALSE(parsed);
  return parsed.error();
}

}  // namespace

TEST_CASE("args: flags, values and positionals parse to exactly what was given") {
  const auto parsed = parse({"--steps", "5", "pile", "--json", "--dump", "out.jsonl"});
  REQUIRE(parsed);
  CHECK(parsed->spec == &kSpec);
  CHECK_FALSE(parsed->help);
  CHECK(parsed->positionals == Values{"pile"});
  CHECK(parsed->given.size() == 3);
  CHECK(parsed->given.at("--steps") == Values{"5"});
  CHECK(parsed->given.at("--json") == Values{""});
  CHECK(parsed->given.at("--dump") == Values{"out.jsonl"});
  CHECK(parsed->integer("--steps") == 5);
  CHECK(parsed->has("--json"));
  CHECK_FALSE(parsed->has("--churn"));
  CHECK(parsed->value("--dump") == "out.jsonl");
  CHECK(parsed->value("--churn") == std::nullopt);
  CHECK(parsed->unsignedInteger("--churn") == std::nullopt);
  CHECK(parsed->values("--set").empty());
}

TEST_CASE("args: a flag not given takes its declared default") {
  const auto parsed = parse({"pile"});
  REQUIRE(parsed);
  CHECK(parsed->given.empty());
  CHECK_FALSE(parsed->has("--steps"));
  CHECK(parsed->value("--steps") == "600");
  CHECK(parsed->integer("--steps") == 600);
}

TEST_CASE("args: an unknown flag is named with the command and the known flags") {
  CHECK(errorOf({"pile", "--stpes", "5"}) ==
        "unknown option '--stpes' for 'sim' (known: --steps, --set, --json, --dump, --churn, "
        "--help)");
  CHECK(errorOf({"-x"}) ==
        "unknown option '-x' for 'sim' (known: --steps, --set, --json, --dump, --churn, --help)");
  CHECK(errorOf({"--stpes=5"}) ==
        "unknown option '--stpes' for 'sim' (known: --steps, --set, --json, --dump, --churn, "
        "--help)");
}

TEST_CASE("args: a flag at the end without its value is named with what it needs") {
  CHECK(errorOf({"pile", "--dump"}) == "--dump needs a value (FILE)");
  CHECK(errorOf({"pile", "--steps"}) == "--steps needs a value (N)");
  CHECK(errorOf({"pile", "--set"}) == "--set needs a value (key=value)");
}

TEST_CASE("args: the word after a flag that takes a value is its value, dashes and all") {
  const auto parsed = parse({"pile", "--dump", "--json"});
  REQUIRE(parsed);
  CHECK(parsed->given.at("--dump") == Values{"--json"});
  CHECK_FALSE(parsed->has("--json"));
  CHECK(parse({"pile", "--dump", ""})->value("--dump") == "");
}

TEST_CASE("args: a value that is not an integer is refused, naming flag, range and value") {
  CHECK(errorOf({"pile", "--steps", "x"}) ==
        "--steps: expected an integer in [1, 100000000], got 'x'");
  CHECK(errorOf({"pile", "--steps", "5x"}) ==
        "--steps: expected an integer in [1, 100000000], got '5x'");
  CHECK(errorOf({"pile", "--steps", ""}) ==
        "--steps: expected an integer in [1, 100000000], got ''");
  CHECK(errorOf({"pile", "--steps", "2.5"}) ==
        "--steps: expected an integer in [1, 100000000], got '2.5'");
  CHECK(errorOf({"pile", "--steps", " 5"}) ==
        "--steps: expected an integer in [1, 100000000], got ' 5'");
  CHECK(errorOf({"pile", "--churn", "abc"}) == "--churn: expected an integer >= 0, got 'abc'");
  CHECK(errorOf({"pile", "--steps", "+-5"}) ==
        "--steps: expected an integer in [1, 100000000], got '+-5'");
}

TEST_CASE("args: an integer outside its range is refused, naming flag, range and value") {
  CHECK(errorOf({"pile", "--steps", "0"}) ==
        "--steps: expected an integer in [1, 100000000], got '0'");
  CHECK(errorOf({"pile", "--steps", "-3"}) ==
        "--steps: expected an integer in [1, 100000000], got '-3'");
  CHECK(errorOf({"pile", "--steps", "100000001"}) ==
        "--steps: expected an integer in [1, 100000000], got '100000001'");
  CHECK(errorOf({"pile", "--steps", "99999999999999999999"}) ==
        "--steps: expected an integer in [1, 100000000], got '99999999999999999999'");
  CHECK(errorOf({"pile", "--churn", "-1"}) == "--churn: expected an integer >= 0, got '-1'");
  CHECK(errorOf({"pile", "--churn", "18446744073709551616"}) ==
        "--churn: expected an integer >= 0, got '18446744073709551616'");
}

TEST_CASE("args: the ends of an integer's range are accepted") {
  CHECK(parse({"pile", "--steps", "1"})->integer("--steps") == 1);
  CHECK(parse({"pile", "--steps", "100000000"})->integer("--steps") == 100000000);
  CHECK(parse({"pile", "--steps", "+7"})->integer("--steps") == 7);
  CHECK(parse({"pile", "--churn", "0"})->unsignedInteger("--churn") == 0u);
  CHECK(parse({"pile", "--churn", "18446744073709551615"})->unsignedInteger("--churn") ==
        18446744073709551615u);
}

TEST_CASE("args: a repeated flag keeps every value in order, another keeps its last") {
  const auto parsed = parse({"--set", "dt=0.01", "pile", "--set", "gravity=0,0,0", "--steps", "5",
                             "--steps", "7", "--json", "--json"});
  REQUIRE(parsed);
  CHECK(parsed->given.at("--set") == Values{"dt=0.01", "gravity=0,0,0"});
  CHECK(parsed->values("--set") == Values{"dt=0.01", "gravity=0,0,0"});
  CHECK(parsed->value("--set") == "gravity=0,0,0");
  CHECK(parsed->given.at("--steps") == Values{"7"});
  CHECK(parsed->integer("--steps") == 7);
  CHECK(parsed->given.at("--json") == Values{""});
}

TEST_CASE("args: positional arguments must match the declared count") {
  CHECK(errorOf({}) == "missing SCENE");
  CHECK(errorOf({"--json"}) == "missing SCENE");
  CHECK(errorOf({"pile", "tower"}) ==
        "unexpected argument 'tower'; 'sim' takes SCENE, already given 'pile'");
  constexpr CommandSpec kNone{.name = "settings"};
  const Values one{"x"};
  const auto none = parseArgs(kNone, one);
  REQUIRE_FALSE(none);
  CHECK(none.error() == "unexpected argument 'x'; 'settings' takes no arguments");
  CHECK(parseArgs(kNone, Values{})->positionals.empty());
}

TEST_CASE("args: '-' is a positional argument and '--' ends the options") {
  CHECK(parse({"-"})->positionals == Values{"-"});
  const auto parsed = parse({"--json", "--", "--steps"});
  REQUIRE(parsed);
  CHECK(parsed->positionals == Values{"--steps"});
  CHECK(parsed->given.size() == 1);
  CHECK(parsed->has("--json"));
}

TEST_CASE("args: --flag=value is the same as --flag value") {
  const auto parsed = parse({"pile", "--steps=5", "--set=dt=0.01", "--dump=", "--set", "a=b"});
  REQUIRE(parsed);
  CHECK(parsed->given.at("--steps") == Values{"5"});
  CHECK(parsed->given.at("--set") == Values{"dt=0.01", "a=b"});
  CHECK(parsed->given.at("--dump") == Values{""});
  CHECK(errorOf({"pile", "--steps=x"}) ==
        "--steps: expected an integer in [1, 100000000], got 'x'");
  CHECK(errorOf({"pile", "--json=1"}) == "--json takes no value, got '--json=1'");
  CHECK(errorOf({"pile", "--help=1"}) == "--help takes no value, got '--help=1'");
}

TEST_CASE("args: --help or -h stops the parse, whatever follows") {
  for (const char* help : {"--help", "-h"}) {
    const auto parsed = parse({"--steps", "5", help, "--bogus", "a", "b"});
    REQUIRE(parsed);
    CHECK(parsed->help);
    CHECK(parsed->positionals.empty());
    CHECK(parsed->given.at("--steps") == Values{"5"});
  }
  CHECK(errorOf({"--bogus", "--help"}).rfind("unknown option '--bogus'", 0) == 0);
}

TEST_CASE("args: --help is written from the declarations") {
  CHECK(helpText(kSpec) ==
        "usage: tumble-cli sim SCENE [--steps N] [--set key=value]... [--json]\n"
        "                      [--dump FILE] [--churn SEED]\n"
        "Runs a scene.\n"
        "\n"
        "arguments:\n"
        "  SCENE             a scene\n"
        "\n"
        "options:\n"
        "  --steps N         steps to run (an integer in [1, 100000000]; default 600)\n"
        "  --set key=value   change a setting\n"
        "  --json            print JSON\n"
        "  --dump FILE       write the state\n"
        "  --churn SEED      the long run (an integer >= 0)\n"
        "  --help, -h        print this help\n"
        "\n"
        "Exit status: 0 or 1.\n");
}
