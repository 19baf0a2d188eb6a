"""What the operator reads: chosen values with their reasons and margins, faults, and the
verdict of each check with what to do.  Plain lines, the same on a terminal and on the
cabinet screen; the PNG report of a session draws these beside the signal plots."""

from __future__ import annotations

from calibration.wizard import Wizard, pad_name


def review_lines(w: Wizard) -> list[str]:
    out: list[str] = []
    for p in w.targets:
        n = pad_name(p, w.names).capitalize()
        if w.analog:
            f = w.fits[p]
            s = f.settings
            out.append(
                f"{n}: threshold {s.threshold}, sensitivity {s.sensitivity}, curve {s.curve}, scan {s.scan_us} µs, "
                f"mask {s.mask_us} µs, retrigger {s.retrigger_pct} %/{s.retrigger_decay_us} µs, "
                f"crosstalk {s.xtalk_pct} %/{s.xtalk_window_us} µs, baseline shift {s.baseline_shift}"
            )
            out += [f"  - {r}" for r in f.reasons]
            out += [f"  ! {x}" for x in f.warnings]
            out += [f"  ✗ {x}" for x in f.problems]
        else:
            g = w.gpio_fits[p]
            out.append(f"{n}: mask {g.mask_us} µs (gpio-edge: no analog signal)")
            out += [f"  - {r}" for r in g.reasons]
            out += [f"  ✗ {x}" for x in g.problems]
        out += [f"  {'✗' if x.fatal else '!'} {x.text}" for x in w.faults.get(p, [])]
    return out


def verdict_lines(w: Wizard) -> list[str]:
    out: list[str] = []
    for p in w.targets:
        v = w.verdicts[p]
        out.append(f"{pad_name(p, w.names).capitalize()}: {'PASS' if v.passed else 'FAIL'}")
        for c in v.checks:
            out.append(f"  {'✓' if c.passed else '✗'} {c.name}: {c.measured} (wanted {c.wanted})")
            if c.advice:
                out.append(f"      → {c.advice}")
    out.append(
        "ALL CHECKS PASSED: save the profile." if w.passed else "Some checks FAILED: fix what is said above, then redo."
    )
    return out


def criteria_lines(w: Wizard) -> list[str]:
    return ["Pass criteria:"] + [f"  - {c}" for c in w.criteria.describe()]
