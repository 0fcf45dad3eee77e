"""setup.py — builds the C library and the tool with the repository's Makefile (the folder above this one;
build directory $PTOSIM_BUILD, default build/) and puts them into the package: ptosim/libptosim.so.0 and
ptosim/ptosim-cli, which the package finds first (_lib.py). The wheel is therefore specific to this
machine's platform. Metadata: pyproject.toml."""
import os, shutil, subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        build = os.environ.get("PTOSIM_BUILD") or os.path.join(ROOT, "build")    # the Makefile's B
        env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
        subprocess.check_call(["make", "-C", ROOT, "B=" + build, os.path.join(build, "libptosim.so.0"),
                               os.path.join(build, "ptosim")], env=env)
        dest = os.path.join(self.build_lib, "ptosim")
        shutil.copyfile(os.path.realpath(os.path.join(build, "libptosim.so.0")), os.path.join(dest, "libptosim.so.0"))
        shutil.copyfile(os.path.join(build, "ptosim"), os.path.join(dest, "ptosim-cli"))
        os.chmod(os.path.join(dest, "ptosim-cli"), 0o755)
        os.chmod(os.path.join(dest, "libptosim.so.0"), 0o755)


class PlatformDistribution(Distribution):
    def has_ext_modules(self):
        return True            # the package carries a shared library: tag the wheel with the platform


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=PlatformDistribution)
