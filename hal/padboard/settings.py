"""One pad's detector settings as the host sees them (the board keeps the same fields).

Field order, defaults and ranges are ``wire.SETTINGS_FIELDS``: the one table both ends
share.  Amplitudes are read_u16 counts (0..65535) above the pad's tracked baseline.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from hal.padboard import wire

_D = {name: default for name, default, _lo, _hi in wire.SETTINGS_FIELDS}
_RANGE = {name: (lo, hi) for name, _d, lo, hi in wire.SETTINGS_FIELDS}
ADDED_FIELDS = (
    "onset_us",
    "onset_exp",
    *wire.XTALK_FROM,
    *wire.XGAIN_FROM,
    *wire.XLAG_FROM,
    "xclean_pct",
    "second_pct",
    "lobe_us",
)
"""Settings added in protocols 2, 3, 6 and 7: a profile saved before them loads with the defaults."""


@dataclass(frozen=True)
class PadSettings:
    """Detector settings of one pad.

    threshold: onset when |sample - baseline| reaches this (set it a safe margin above
        the noise that ``health`` reports).
    sensitivity: the peak that maps to velocity 127; a peak at the threshold is 1.
    curve: velocity curve exponent ×100 (100 linear, < 100 favours soft slaps).
    scan_us: after an onset, how long the peak is searched for.  Only the velocity and
        the report latency depend on it, never the stamp.
    mask_us: no new onset on this pad for this long after one.
    retrigger_pct, retrigger_decay_us: after the mask, a new onset must also exceed
        peak × pct/100 × exp(-(time since onset)/decay), which rides above the ring
        (calibration fits the pad's own ring: its time constant, and a pct over 100).
    second_pct: while that line stands over the threshold, a hit whose peak rises less
        than this % of the last slap's peak over the ring (the line ÷ pct/100) is the
        palm's second contact, not a slap: dropped, its ring joins the line.  0: off.
    xtalk_pct, xtalk_window_us: a hit is crosstalk, and dropped, when another pad's hit
        with an onset within the window is stronger than this hit's peak × 100/pct.
        0 turns crosstalk cancel off for the pad (and its report latency down to scan_us).
    xtalk_from0 … xtalk_from3: the crosstalk ratio for hits on that pad in particular (a
        far pad shakes this one less than its neighbour); 255 uses ``xtalk_pct``.
    xgain_from0 … xgain_from3, xlag_from0 … xlag_from3: crosstalk subtraction.  Before
        the board times a hit's rising edge it subtracts, from this pad's signal, each
        other pad's that had a hit near it, scaled by ``xgain`` ‰ and ``xlag`` µs earlier
        (that pair's crosstalk as calibration measured it), so a neighbour's slap riding
        on a soft slap's edge does not move its stamp.  0 ‰: not subtracted.
    xclean_pct: such a hit is a slap of its own, never dropped as another pad's
        crosstalk, when what is left is at least this % of what was subtracted (two pads
        never ring quite alike, so a little is always left: calibration measures it).
    baseline_shift: the baseline IIR moves 1/2**shift of the error per sample (10 at
        4 kHz ≈ a 0.26 s time constant); frozen while a hit is scanned.
    onset_us, onset_exp: the pad's delay from the palm's contact to the point where the
        rising edge reaches half the hit's peak, ``onset_us`` at a peak of 10,000 counts,
        times (peak/10,000)^(-onset_exp/1000): the board subtracts it from the time it
        measures there, so the stamp is the contact, whatever the force
        (docs/slap-timing.md; calibration fits it per pad).  The scan must reach the
        peak: the stamp is timed from it.
    lobe_us: a hit the board times on a narrow first lobe against the main swing (the
        contact's own answer, no curve) has this taken off its stamp: the pad's delay
        from contact to that lobe's half height (a wooden pad's lobe comes a few hundred
        µs after contact, behind a pre swing too small to time; calibration measures it).
        A swing the main swing's way before it (that pre swing) takes none.
    """

    threshold: int = _D["threshold"]
    sensitivity: int = _D["sensitivity"]
    curve: int = _D["curve"]
    scan_us: int = _D["scan_us"]
    mask_us: int = _D["mask_us"]
    retrigger_pct: int = _D["retrigger_pct"]
    retrigger_decay_us: int = _D["retrigger_decay_us"]
    xtalk_pct: int = _D["xtalk_pct"]
    xtalk_window_us: int = _D["xtalk_window_us"]
    baseline_shift: int = _D["baseline_shift"]
    onset_us: int = _D["onset_us"]
    onset_exp: int = _D["onset_exp"]
    xtalk_from0: int = _D["xtalk_from0"]
    xtalk_from1: int = _D["xtalk_from1"]
    xtalk_from2: int = _D["xtalk_from2"]
    xtalk_from3: int = _D["xtalk_from3"]
    xgain_from0: int = _D["xgain_from0"]
    xgain_from1: int = _D["xgain_from1"]
    xgain_from2: int = _D["xgain_from2"]
    xgain_from3: int = _D["xgain_from3"]
    xlag_from0: int = _D["xlag_from0"]
    xlag_from1: int = _D["xlag_from1"]
    xlag_from2: int = _D["xlag_from2"]
    xlag_from3: int = _D["xlag_from3"]
    xclean_pct: int = _D["xclean_pct"]
    second_pct: int = _D["second_pct"]
    lobe_us: int = _D["lobe_us"]

    def __post_init__(self) -> None:
        for f in fields(self):
            lo, hi = _RANGE[f.name]
            v = getattr(self, f.name)
            if not isinstance(v, int) or not lo <= v <= hi:
                raise ValueError(f"{f.name}={v!r} outside {lo}..{hi}")

    def as_dict(self) -> dict[str, int]:
        """The plain dict the detector and the wire codec take."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, int]) -> PadSettings:
        """From a full dict; the settings protocols 2, 3, 6 and 7 added may be missing from
        older profiles and then take their defaults."""
        values = {name: _D[name] for name in ADDED_FIELDS}
        values.update(d)
        return cls(**{f.name: int(values[f.name]) for f in fields(cls)})
