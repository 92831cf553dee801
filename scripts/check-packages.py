#!/usr/bin/python3
"""Checks that a build used nothing but the packages scripts/packages.txt names.

Usage: scripts/check-packages.py BUILD_DIR [BUILD_DIR...]   (configured and built trees)

A machine can pass the README's commands only because it happens to have a package that
scripts/install-deps.sh never installs (oneDNN's CMake package once required OpenCL's
development files, present on the CI machine and absent on a user's). This check makes such a
build fail wherever it runs. It collects the files each build read:

  - configure: every CMake file CMake read (build.ninja's re-run dependencies) and every file
    named in CMakeCache.txt (libraries, headers, programs found);
  - compile:   every header of every object (ninja's dependency log, `ninja -t deps`);
  - link:      every library on a link line (`ninja -t commands`, -l names resolved by g++);
  - run:       every shared library the built programs and libraries load (ldd);

maps each to the Debian package that owns it (dpkg's file lists), and fails, naming the
package and the files, for any package outside the allowed set: the packages.txt list and
everything it depends on (Depends and Pre-Depends, recursively, through virtual packages),
plus the packages every Debian system has (Essential or Priority required). A file under /usr
or /opt that no package owns fails too: a user's machine does not have it.
"""

import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)


def listed_packages():
    """The apt, reference and optional packages of scripts/packages.txt."""
    pkgs = []
    with open(os.path.join(HERE, "packages.txt")) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if words and words[0] in ("apt", "reference", "optional"):
                pkgs.extend(words[1:])
    return pkgs


def installed_packages():
    """name -> dict of the installed packages' fields (arch qualifiers dropped)."""
    fmt = "${Package}\\t${Status}\\t${Essential}\\t${Priority}\\t${Depends}\\t${Pre-Depends}\\t${Provides}\\n"
    out = subprocess.run(["dpkg-query", "-W", "-f=" + fmt], capture_output=True, text=True, check=True).stdout
    pkgs = {}
    for line in out.splitlines():
        name, status, essential, priority, depends, predepends, provides = (line.split("\t") + [""] * 7)[:7]
        if not status.endswith(" installed"):
            continue
        pkgs[name] = dict(essential=essential == "yes", priority=priority,
                          depends=", ".join(x for x in (depends, predepends) if x), provides=provides)
    return pkgs


def bare(name):
    """'libfoo:amd64 (>= 1.2)' -> 'libfoo'"""
    return re.split(r"[\s:(]", name.strip(), maxsplit=1)[0]


def allowed_closure(roots, pkgs):
    """roots plus the installed packages they depend on, recursively. Of alternatives
    ('a | b') every installed one counts: apt may have chosen any of them on another machine
    whose state differed. A virtual package stands for its installed providers."""
    providers = {}
    for name, info in pkgs.items():
        for v in info["provides"].split(","):
            if v.strip():
                providers.setdefault(bare(v), set()).add(name)
    allowed, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in allowed:
            continue
        allowed.add(name)
        info = pkgs.get(name)
        if info is None:
            continue
        for clause in info["depends"].split(","):
            for alt in clause.split("|"):
                dep = bare(alt)
                if not dep:
                    continue
                for cand in {dep} | providers.get(dep, set()):
                    if cand in pkgs and cand not in allowed:
                        todo.append(cand)
    return allowed


def norm(path):
    """A path with its directory resolved (merged /usr: /lib -> /usr/lib) but its last
    component kept, so that a symlink stays the file its package ships."""
    d, b = os.path.split(os.path.abspath(path))
    return os.path.join(os.path.realpath(d), b)


def file_owners():
    """normalized path -> owning packages, from dpkg's file lists."""
    owners = {}
    info = "/var/lib/dpkg/info"
    for entry in os.listdir(info):
        if not entry.endswith(".list"):
            continue
        pkg = bare(entry[:-5])
        with open(os.path.join(info, entry), errors="replace") as f:
            for line in f:
                p = line.rstrip("\n")
                if p and p != "/." and not os.path.isdir(p):
                    owners.setdefault(norm(p), set()).add(pkg)
    return owners


def ninja(build, *args):
    return subprocess.run(["ninja", "-C", build, *args], capture_output=True, text=True, check=True).stdout


def configure_files(build):
    files = set()
    with open(os.path.join(build, "build.ninja")) as f:
        for line in f:
            if line.startswith("build build.ninja") and "RERUN_CMAKE" in line:
                deps = line.split("|", 1)[1] if "|" in line else ""
                files.update(w for w in deps.split() if w.startswith("/"))
    with open(os.path.join(build, "CMakeCache.txt"), errors="replace") as f:
        for line in f:
            m = re.match(r"^[^#/][^:=]*:[A-Z]+=(.*)$", line.rstrip("\n"))
            if not m:
                continue
            for value in m.group(1).split(";"):
                value = value.strip()
                if value.startswith("/") and os.path.isfile(value):
                    files.add(value)
    return files


def compile_files(build):
    files = set()
    for line in ninja(build, "-t", "deps").splitlines():
        if line.startswith("    "):
            p = line.strip()
            if p.startswith("/"):
                files.add(p)
    return files


def link_files(build):
    """Libraries on the link lines: absolute paths, and -lNAME as g++ resolves it."""
    files, names, dirs = set(), set(), set()
    for cmd in ninja(build, "-t", "commands").splitlines():
        if " -o " not in cmd or " -c " in cmd:  # link lines only, not compiles
            continue
        try:
            words = shlex.split(cmd)
        except ValueError:
            continue
        for w in words:
            if w.startswith("-l") and len(w) > 2:
                names.add(w[2:])
            elif w.startswith("-L"):
                dirs.add(w[2:])
            elif w.startswith("/") and re.search(r"\.(so(\.[0-9.]+)?|a)$", w) and os.path.exists(w):
                files.add(w)
    for name in sorted(names):
        found = None
        for d in sorted(dirs):
            for suffix in (".so", ".a"):
                cand = os.path.join(d, "lib" + name + suffix)
                if os.path.exists(cand):
                    found = found or cand
        if not found:
            r = subprocess.run(["g++", "-print-file-name=lib%s.so" % name], capture_output=True, text=True)
            p = r.stdout.strip()
            if p.startswith("/") and os.path.exists(p):
                found = p
        if found:
            files.add(found)
    return files


def runtime_files(build):
    """Shared libraries loaded by the ELF programs and libraries the build made."""
    files, elves = set(), []
    for root, _dirs, names in os.walk(build):
        for n in names:
            p = os.path.join(root, n)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            if not (os.access(p, os.X_OK) or ".so" in n):
                continue
            with open(p, "rb") as f:
                if f.read(4) == b"\x7fELF":
                    elves.append(p)
    for p in elves:
        r = subprocess.run(["ldd", p], capture_output=True, text=True)
        for line in r.stdout.splitlines():
            m = re.search(r"=>\s+(/\S+)", line) or re.match(r"\s*(/\S+)\s+\(", line)
            if m and os.path.exists(m.group(1)):
                files.add(m.group(1))
    return files


def main(argv):
    builds = [os.path.abspath(b) for b in argv[1:]]
    if not builds or not all(os.path.isfile(os.path.join(b, "CMakeCache.txt")) for b in builds):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    pkgs = installed_packages()
    listed = listed_packages()
    not_installed = [p for p in listed if p not in pkgs]
    base = [n for n, info in pkgs.items() if info["essential"] or info["priority"] == "required"]
    allowed = allowed_closure(listed + base, pkgs)
    owners = file_owners()
    local_roots = [SOURCE] + builds + ["/tmp/", "/proc/", "/dev/"]

    used = {}  # path -> set of steps that read it
    for build in builds:
        for step, collect in (("configure", configure_files), ("compile", compile_files),
                              ("link", link_files), ("run", runtime_files)):
            for p in collect(build):
                used.setdefault(p, set()).add(step)

    outside, unowned = {}, {}
    for p, steps in used.items():
        pkg_set = owners.get(norm(p))
        if pkg_set is None and os.path.exists(p):
            pkg_set = owners.get(os.path.realpath(p))
        if pkg_set is None:
            if any(os.path.realpath(p).startswith(os.path.realpath(r)) for r in local_roots):
                continue
            if re.match(r"^/(usr|opt|lib|lib64|bin|sbin)/", p):
                unowned[p] = steps
            continue
        if not pkg_set & allowed:
            for pkg in pkg_set:
                outside.setdefault(pkg, []).append((p, steps))

    print("ivy check-packages: %d files read by %d build(s); %d packages allowed (packages.txt: %d, "
          "with their dependencies and the base system)" % (len(used), len(builds), len(allowed), len(listed)))
    ok = True
    if not_installed:
        ok = False
        print("ivy check-packages: listed but not installed: %s (run scripts/install-deps.sh)" % " ".join(not_installed))
    for pkg in sorted(outside):
        ok = False
        files = sorted(outside[pkg])
        print("ivy check-packages: the build used package %s, which scripts/packages.txt does not name "
              "and no listed package depends on:" % pkg)
        for p, steps in files[:8]:
            print("    %s  (%s)" % (p, ", ".join(sorted(steps))))
        if len(files) > 8:
            print("    ... and %d more files" % (len(files) - 8))
    for p in sorted(unowned):
        ok = False
        print("ivy check-packages: the build used %s (%s), which no Debian package owns"
              % (p, ", ".join(sorted(unowned[p]))))
    if ok:
        print("ivy check-packages: passed: every file the build read comes from a listed package or its dependencies")
        return 0
    print("ivy check-packages: FAILED: add the package to scripts/packages.txt, or stop the build from using it")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
