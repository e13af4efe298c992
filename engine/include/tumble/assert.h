#pragma once
/// Misuse of the API that the engine can detect but not report through a return value (a stale
/// or foreign BodyId passed to a setter, say) goes to one assert handler, as in Box2D v3
/// (b2SetAssertFcn). The default handler prints the message and aborts in debug builds (the
/// engine built without NDEBUG) and only prints it in release builds; either way the call that
/// failed does nothing. Tests install their own handler to count failures.

namespace tumble {

/// Called with the failed condition, a message naming the call and the id, and where it failed.
/// Returns nothing; the engine makes the failing call a no-op afterwards.
using AssertHandler = void (*)(const char* condition, const char* message, const char* file,
                               int line);

/// Installs `handler` (nullptr restores the default) and returns the previous one. Not thread
/// safe: set it once at start-up or in a test.
AssertHandler setAssertHandler(AssertHandler handler);

/// Calls the current handler (engine-internal; public so that inline code may use it).
void reportAssert(const char* condition, const char* message, const char* file, int line);

}  // namespace tumble
