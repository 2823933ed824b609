"""A built wheel publishes the same site as the development install: templates,
static files and catalogs ship inside the package."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # 2.5-4.5 s: builds the wheel and installs it in a new venv
def test_wheel_install_publishes_identically(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(wheels), str(ROOT)], check=True, cwd=tmp_path)
    wheel = next(wheels.glob("keizer-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site), str(wheel)],
                   check=True)
    # The dependencies come from this environment, after the wheel's own files.
    (site / "zz_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    where = subprocess.run([str(python), "-c", "import keizer; print(keizer.__file__)"], check=True,
                           capture_output=True, text=True, cwd=tmp_path).stdout
    assert str(site) in where and str(ROOT) not in where

    from_wheel, from_source = tmp_path / "w", tmp_path / "s"
    for python_exe, out in ((str(python), from_wheel), (sys.executable, from_source)):
        result = subprocess.run([python_exe, "-m", "keizer", "--db", str(ROOT / "sample_club.db"), "publish",
                                 str(out), "--language", "nl"], capture_output=True, text=True, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
    files = sorted(p.relative_to(from_source) for p in from_source.rglob("*") if p.is_file())
    assert len(files) > 70
    assert files == sorted(p.relative_to(from_wheel) for p in from_wheel.rglob("*") if p.is_file())
    for rel in files:
        assert (from_wheel / rel).read_bytes() == (from_source / rel).read_bytes(), rel


def test_every_package_of_the_source_is_in_the_wheel():
    """pyproject.toml lists the packages by hand: a new one left out is missing from a wheel
    (the app's pages were: keizer.web.views), which an editable install never shows."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    src = ROOT / "src"
    found = {".".join(p.parent.relative_to(src).parts) for p in (src / "keizer").rglob("__init__.py")}
    assert found - listed == set()
