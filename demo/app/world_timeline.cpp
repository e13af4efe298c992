// WorldSample's timeline (README, "The demo": Timeline): every step recorded in a
// tumble::Timeline within the panel's memory budget; step back (,), rewind, a scrub slider, play
// on from any recorded step (the future is recomputed); snapshot files saved and loaded from the
// panel and with --load-snapshot; and "check determinism", which steps every step twice from one
// snapshot and shows the first step whose hashes differ.
#include <imgui.h>

#include <cstdio>

#include "tumble/snapshot.h"
#include "world_sample.h"

namespace tumble::demo {

void WorldSample::releaseDrag() {
  // A restored world holds the drags of its moment; the mouse holds none now.
  for (const DragId d : world_->dragIds()) world_->destroyDrag(d);
  drag_ = DragId{};
}

void WorldSample::afterStep(SampleContext& ctx, const std::vector<uint8_t>& before) {
  if (!before.empty()) {
    // The same step again, from the snapshot taken before it, in a world of its own.
    World twin;
    Expected<void> again = tumble::restoreSnapshot(twin, before);
    if (again) again = twin.step(ctx.settings.dt);
    ++determinismChecked_;
    if (determinismFailure_.empty() && (!again || twin.stateHash() != world_->stateHash())) {
      char message[200];
      std::snprintf(message, sizeof message,
                    "step %lld differs when stepped again: %016llx, then %016llx%s%s",
                    static_cast<long long>(world_->stepCount()),
                    static_cast<unsigned long long>(world_->stateHash()),
                    static_cast<unsigned long long>(twin.stateHash()), again ? "" : ": ",
                    again ? "" : again.error().c_str());
      determinismFailure_ = message;
    }
  }
  const size_t budget = static_cast<size_t>(timelineMb_) << 20;
  if (timeline_.settings().budgetBytes != budget)
    timeline_.setSettings({.budgetBytes = budget, .keyframeInterval = 30});
  timeline_.record(*world_, ctx.settings.dt);
}

Expected<void> WorldSample::seekTimeline(SampleContext& ctx, int64_t step) {
  if (ctx.paused) *ctx.paused = true;
  if (Expected<void> done = timeline_.seek(*world_, step); !done) return done;
  releaseDrag();
  ctx.settings = world_->settings();  // the panel shows the settings of that moment
  timelineMessage_.clear();
  return tumble::ok();
}

Expected<void> WorldSample::restoreSnapshot(SampleContext& ctx, const std::filesystem::path& file) {
  if (Expected<void> done = restoreSnapshotFile(*world_, file); !done) return done;
  uploadMeshes(ctx);  // the snapshot's shapes are new geometry
  releaseDrag();
  ctx.settings = world_->settings();
  timeline_.clear();
  timelineMessage_ =
      "loaded " + file.string() + " (step " + std::to_string(world_->stepCount()) + ")";
  return tumble::ok();
}

std::string WorldSample::stateJson() const {
  char text[512];
  std::snprintf(text, sizeof text,
                "\"step\": %lld, \"state_hash\": \"%016llx\", \"timeline\": {\"first\": %lld, "
                "\"last\": %lld, \"keyframes\": %d, \"bytes\": %zu}, \"determinism\": "
                "{\"checked\": %lld, \"failed\": %s}}",
                static_cast<long long>(world_->stepCount()),
                static_cast<unsigned long long>(world_->stateHash()),
                static_cast<long long>(timeline_.empty() ? 0 : timeline_.firstStep()),
                static_cast<long long>(timeline_.empty() ? 0 : timeline_.lastStep()),
                timeline_.keyframeCount(), timeline_.bytes(),
                static_cast<long long>(determinismChecked_),
                determinismFailure_.empty() ? "false" : "true");
  return "{\"probe\": " + probe_.stateJson() + ", " + text;
}

void WorldSample::drawTimeline(SampleContext& ctx) {
  if (!ImGui::CollapsingHeader("Timeline")) return;
  if (timeline_.empty()) {
    ImGui::TextDisabled("nothing recorded yet (run the simulation)");
  } else {
    const int64_t first = timeline_.firstStep(), last = timeline_.lastStep();
    int64_t shown = world_->stepCount();
    ImGui::Text("recorded steps %lld to %lld (%.1f s), %d keyframes, %.1f MB",
                static_cast<long long>(first), static_cast<long long>(last),
                static_cast<double>(last - first) * ctx.settings.dt, timeline_.keyframeCount(),
                static_cast<double>(timeline_.bytes()) / (1 << 20));
    auto seek = [&](int64_t step) {
      if (auto error = seekTimeline(ctx, step); !error) timelineMessage_ = error.error();
    };
    if (ImGui::Button("|<")) seek(first);
    ImGui::SameLine();
    if (ImGui::Button("< (,)") && shown > first) seek(std::min(shown, last + 1) - 1);
    ImGui::SameLine();
    if (ImGui::Button(">") && shown < last) seek(shown + 1);
    ImGui::SameLine();
    if (ImGui::Button(">|")) seek(last);
    // Scrubbing pauses; resuming (P) plays on from the step shown, recomputing the future.
    int64_t scrub = std::clamp(shown, first, last);
    if (ImGui::SliderScalar("step", ImGuiDataType_S64, &scrub, &first, &last) && scrub != shown)
      seek(scrub);
    if (shown < last) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled("showing the past: P plays on from here (the later steps are redone)");
      ImGui::PopTextWrapPos();
    }
  }
  ImGui::SliderInt("memory (MB)", &timelineMb_, 16, 2048);
  ImGui::Checkbox("check determinism", &checkDeterminism_);
  if (checkDeterminism_ || determinismChecked_ > 0) {
    ImGui::SameLine();
    if (determinismFailure_.empty()) {
      ImGui::TextDisabled("%lld steps stepped twice, all equal",
                          static_cast<long long>(determinismChecked_));
    } else {
      ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "%s", determinismFailure_.c_str());
    }
  }
  char path[512];
  std::snprintf(path, sizeof path, "%s", snapshotPath_.c_str());
  if (ImGui::InputText("snapshot file", path, sizeof path)) snapshotPath_ = path;
  if (ImGui::Button("save snapshot")) {
    const Expected<void> saved = saveSnapshotFile(*world_, snapshotPath_);
    timelineMessage_ =
        saved ? "saved step " + std::to_string(world_->stepCount()) + " to " + snapshotPath_
              : saved.error();
  }
  ImGui::SameLine();
  if (ImGui::Button("load snapshot")) {
    if (auto loaded = restoreSnapshot(ctx, snapshotPath_); !loaded)
      timelineMessage_ = loaded.error();
  }
  if (!timelineMessage_.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", timelineMessage_.c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace tumble::demo
