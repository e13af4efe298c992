#pragma once
// Every control of tumble-demo in one table: the F1 overlay, --help and README's demo section
// show it (`tumble-demo --controls-markdown` prints README's table).
#include <span>
#include <string>
#include <string_view>

namespace tumble::demo {

struct Control {
  std::string_view input;   ///< the key or mouse gesture
  std::string_view action;  ///< what it does
};

/// The controls, in the order the help shows them.
std::span<const Control> controlsTable();

/// The table as Markdown (| Input | Action |), as README shows it.
std::string controlsMarkdown();

}  // namespace tumble::demo
