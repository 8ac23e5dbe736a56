#!/usr/bin/env python3
"""Writes the scenario of every lesson that has a "plan" (and "compare_plan"): the plan as
`shardlab plan ... --scenario` writes it, so that the lesson's scenario file is its plan. Run it
after a change to the planner; the lessons' test fails on a scenario that is not its plan.
    tests/plan/write_plan_scenarios.py SHARDLAB [LESSON_DIR]   (default: resources/lessons)
"""
import json
import os
import subprocess
import sys

# The lesson's keys as `shardlab plan` options (docs/lessons.md, "Plan lessons").
OPTIONS = {"machine": "--preset", "gpus": "--gpus", "tp": "--tp", "pp": "--pp", "dp": "--dp", "cp": "--cp",
           "ep": "--ep", "zero": "--zero", "seq": "--seq", "micro_batch": "--micro-batch",
           "global_batch": "--global-batch", "recompute": "--recompute", "precision": "--precision",
           "schedule": "--schedule", "order": "--order"}
SWITCHES = {"sequence_parallel": "--no-sequence-parallel", "overlap": "--no-overlap",
            "flash_attention": "--no-flash-attention"}


def arguments(plan):
    args = [plan["model"]]
    for key, value in plan.items():
        if key in OPTIONS:
            args += [OPTIONS[key], str(value)]
        elif key in SWITCHES:
            if value is False:
                args.append(SWITCHES[key])
        elif key != "model":
            sys.exit(f"unknown plan key '{key}'")
    return args


def main():
    shardlab = sys.argv[1]
    folder = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources", "lessons")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".lesson.json"):
            continue
        lesson = json.load(open(os.path.join(folder, name), encoding="utf-8"))
        for plan_key, scenario_key in (("plan", "scenario"), ("compare_plan", "compare_scenario")):
            if plan_key not in lesson:
                continue
            out = os.path.normpath(os.path.join(folder, lesson[scenario_key]))
            command = [shardlab, "plan", *arguments(lesson[plan_key]), "--scenario", out]
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            print(f"{name}: {os.path.relpath(out, folder)}  ({' '.join(command[2:-2])})")


if __name__ == "__main__":
    main()
