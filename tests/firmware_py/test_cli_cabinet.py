"""``ringside`` as a cabinet runs it: the backend the config names, the data folder it
uses, its version, its log, and one line plus an exit code for every expected failure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_py.process.exit_codes import EXIT_BAD_INPUT, EXIT_HARDWARE, EXIT_SOFTWARE
from firmware_py.tools.cli import main
from hal.config import default_config_path, load_config

REPO = Path(__file__).resolve().parents[2]


def cabinet_config(tmp_path: Path, backend: str = "gpio", data_dir: str | None = None) -> Path:
    """The shipped 2-station config as a cabinet's: ``backend`` set, ``data_dir`` replaced."""
    text = default_config_path().read_text()
    lines = [ln for ln in text.splitlines() if not ln.startswith("data_dir") and not ln.startswith("backend")]
    head = lines.index("[cabinet]") + 1
    extra = [f'backend = "{backend}"'] + ([f'data_dir = "{data_dir}"'] if data_dir else [])
    path = tmp_path / "cabinet.toml"
    path.write_text("\n".join(lines[:head] + extra + lines[head:]) + "\n")
    return path


def one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert " ERROR " in lines[0] and "Traceback" not in err
    return lines[0]


def test_the_config_names_the_backend_and_a_gpio_cabinet_plays_no_exhibition(tmp_path, capsys) -> None:
    path = cabinet_config(tmp_path)
    assert load_config(path).backend == "gpio"
    assert load_config().backend == "sim"  # the shipped development config
    assert main(["run", "--config", str(path), "--headless", "--data", str(tmp_path / "d")]) == EXIT_BAD_INPUT
    line = one_error_line(capsys.readouterr().err)
    assert "the backend is gpio" in line and "plays no exhibition" in line


def test_a_gpio_cabinet_without_lgpio_exits_5_with_one_line(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)
    path = cabinet_config(tmp_path)
    assert main(["run", "--config", str(path), "--data", str(tmp_path / "d")]) == EXIT_SOFTWARE
    assert "the lgpio library is not installed" in one_error_line(capsys.readouterr().err)


def test_hardware_that_cannot_be_opened_exits_4_with_one_line(tmp_path, capsys, monkeypatch) -> None:
    from hal import hardware
    from hal.hardware_errors import padboard_port_missing

    def missing(config, clock):
        raise padboard_port_missing("/dev/ringside-padboard")

    monkeypatch.setattr(hardware, "open_hardware", missing)
    path = cabinet_config(tmp_path)
    assert main(["run", "--config", str(path), "--data", str(tmp_path / "d")]) == EXIT_HARDWARE
    assert "padboard port /dev/ringside-padboard does not exist" in one_error_line(capsys.readouterr().err)


def test_a_bad_backend_names_the_key(tmp_path, capsys) -> None:
    path = cabinet_config(tmp_path, backend="real")
    assert main(["run", "--config", str(path)]) == EXIT_BAD_INPUT
    assert "cabinet.backend = 'real': expected one of gpio, sim" in one_error_line(capsys.readouterr().err)


def test_data_folder_flag_beats_environment_beats_config_beats_xdg(tmp_path, monkeypatch) -> None:
    from firmware_py.tools.cli import data_dir

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert load_config(cabinet_config(tmp_path)).data_dir == tmp_path / "xdg" / "ringside"
    configured = load_config(cabinet_config(tmp_path, data_dir="/var/lib/ringside")).data_dir
    assert configured == Path("/var/lib/ringside")
    monkeypatch.delenv("RINGSIDE_DATA", raising=False)
    assert data_dir(configured, None) == configured
    monkeypatch.setenv("RINGSIDE_DATA", str(tmp_path / "env"))
    assert data_dir(configured, None) == tmp_path / "env"
    assert data_dir(configured, str(tmp_path / "flag")) == tmp_path / "flag"


def test_version_is_the_package_version_and_the_commit(capsys) -> None:
    from firmware_py.process.version import git_head, package_version

    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    out = capsys.readouterr().out.strip()
    sha = git_head(REPO)
    assert sha is not None and len(sha) == 40
    assert out == f"ringside {package_version()} (commit {sha[:12]})"


def test_version_reads_build_info_then_git_files(tmp_path) -> None:
    from firmware_py.process.version import commit

    repo = tmp_path / "checkout"
    (repo / ".git" / "refs" / "heads").mkdir(parents=True)
    (repo / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (repo / ".git" / "packed-refs").write_text("# pack-refs with: peeled\n" + "a" * 40 + " refs/heads/main\n")
    info = tmp_path / "none.json"
    assert commit(repo / "firmware_py", info) == "a" * 12
    (repo / ".git" / "refs" / "heads" / "main").write_text("b" * 40 + "\n")
    assert commit(repo / "firmware_py", info) == "b" * 12
    # A worktree: .git is a file pointing at its own git dir, branches in the common dir.
    wt = tmp_path / "wt"
    gitdir = repo / ".git" / "worktrees" / "wt"
    gitdir.mkdir(parents=True)
    (gitdir / "HEAD").write_text("ref: refs/heads/main\n")
    (gitdir / "commondir").write_text("../..\n")
    wt.mkdir()
    (wt / ".git").write_text(f"gitdir: {gitdir}\n")
    assert commit(wt, info) == "b" * 12
    info.write_text('{"commit": "' + "c" * 40 + '", "dirty": true}')
    assert commit(repo, info) == "c" * 12 + "+dirty"  # the installer's note wins
    assert commit(tmp_path / "nowhere", tmp_path / "missing.json") == "unknown"


def test_selftest_prints_the_version_first(capsys) -> None:
    from firmware_py.process.version import describe

    assert main(["selftest"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == describe()


def test_log_lines_reach_a_pipe_while_the_process_still_runs(tmp_path) -> None:
    """Not buffered: a line is readable before the process ends (what the journal needs)."""
    code = (
        "import logging, sys\n"
        "from firmware_py.process import logs\n"
        "logs.configure(logs.level_for(0))\n"
        "logging.getLogger('ringside').info('attract screen shown')\n"
        "sys.stdin.readline()\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], cwd=REPO, stdin=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        line = proc.stderr.readline()  # would block until exit if the line sat in a buffer
        assert line.endswith(" attract screen shown\n")
        assert proc.poll() is None
    finally:
        proc.communicate("\n", timeout=30)


def test_in_the_journal_each_line_carries_its_priority(tmp_path) -> None:
    code = (
        "import logging, os, sys\n"
        "st = os.fstat(2); os.environ['JOURNAL_STREAM'] = f'{st.st_dev}:{st.st_ino}'\n"
        "from firmware_py.process import logs\n"
        "logs.configure(logs.level_for(1))\n"
        "log = logging.getLogger('ringside')\n"
        "log.debug('d'); log.info('i'); log.warning('w'); log.error('e')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=30)
    assert result.stderr.splitlines() == ["<7>d", "<6>i", "<4>w", "<3>e"]


def test_log_level_options(capsys) -> None:
    import logging

    from firmware_py.process import logs

    assert logs.level_for(0) == logging.INFO
    assert logs.level_for(1) == logging.DEBUG
    assert logs.level_for(2, "warning") == logging.WARNING
    for _ in range(2):
        logs.configure(logging.WARNING)
    handlers = [h for h in logging.getLogger().handlers if isinstance(h, logs.StderrHandler)]
    assert len(handlers) == 1
    logging.getLogger("ringside").info("hidden")
    logging.getLogger("ringside").warning("shown")
    err = capsys.readouterr().err
    assert "hidden" not in err and err.endswith(" WARNING shown\n")
    assert main(["--log-level", "error", "run", "--game", "nope"]) == EXIT_BAD_INPUT
    assert logging.getLogger().level == logging.ERROR
    logs.configure(logging.INFO)


@pytest.mark.slow
def test_calibrate_sim_works_in_a_scratch_folder_and_pushes_nothing_real(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("RINGSIDE_DATA", raising=False)
    cabinet_data = tmp_path / "cabinet-data"
    path = cabinet_config(tmp_path, backend="gpio", data_dir=str(cabinet_data))
    assert main(["calibrate", "--config", str(path), "--sim", "quiet", "--yes"]) == 0
    captured = capsys.readouterr()
    assert not cabinet_data.exists()  # the cabinet's profiles and active profile untouched
    assert "board's flash" not in captured.out and "no real board was written" in captured.out
    assert "scratch folder" in captured.err
    assert os.environ.get("RINGSIDE_DATA") is None
