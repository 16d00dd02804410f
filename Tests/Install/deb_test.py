#!/usr/bin/env python3
"""Builds the Debian package with `make deb` in a clean clone of this repository's HEAD (so a
fresh checkout is what is proved), checks it with lintian (any error fails), installs it with
apt-get, checks what it installed — the binaries run, the menu entry, the settings schema
compiled by dpkg's triggers, the search provider and D-Bus service, the translations — launches
/usr/bin/agent from its menu entry and waits for its window, then purges the package and checks
every file of it has gone. An agent package already installed is purged first. Needs root
(or sudo) for apt-get.

Run inside an X server and a D-Bus session (scripts/test does):
    /usr/bin/python3 Tests/Install/deb_test.py
"""
import glob
import os
import shutil
import subprocess
import tempfile
import time
import xml.etree.ElementTree as ET

import gi

from desktop_app import APP_ID, INSTALLED_FILES, fail, launch_from_menu, stop

gi.require_version("Gio", "2.0")
from gi.repository import Gio  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SUDO = [] if os.geteuid() == 0 else ["sudo"]
APT_ENV = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
# Libraries the binaries load with dlopen (in Sources/C*/), so dpkg-shlibdeps cannot see them.
LOADED_AT_RUN_TIME = ["libcurl4", "libpoppler-glib8", "libgdk-pixbuf-2.0-0"]


def run(command, **options):
    return subprocess.run(command, capture_output=True, text=True, **options)


def installed():
    status = run(["dpkg-query", "-W", "-f=${db:Status-Abbrev}", "agent"])
    return status.returncode == 0 and not status.stdout.startswith("un")


def purge():
    result = run(SUDO + ["apt-get", "purge", "-y", "agent"], env=APT_ENV)
    if result.returncode != 0 or installed():
        fail(f"apt-get purge agent failed:\n{result.stdout}{result.stderr}")


def traces():
    """Agent's files under /usr outside /usr/local (whatever installed them)."""
    found = run(["find", "/usr", "-path", "/usr/local", "-prune", "-o", "(", "-name", f"*{APP_ID}*", "-o",
                 "-path", "/usr/share/doc/agent", "-o", "-path", "/usr/bin/agent", "-o", "-path", "/usr/bin/agent-cli",
                 "-o", "-path", "/usr/bin/agent-install-runtime", ")", "-print"])
    return sorted(found.stdout.split())


def build(clone):
    """`make deb` in a clean clone of HEAD; returns the package's path and the version."""
    subprocess.run(["git", "clone", "-q", ROOT, clone], check=True)
    head = run(["git", "-C", clone, "log", "-1", "--format=%h %s"]).stdout.strip()
    print(f"== make deb in a clean clone of {head}", flush=True)
    log = os.path.join(os.path.dirname(clone), "make-deb.log")
    with open(log, "w") as output:
        if subprocess.run(["make", "-C", clone, "deb"], stdout=output, stderr=subprocess.STDOUT).returncode != 0:
            fail("make deb failed:\n" + "".join(open(log).readlines()[-40:]))
    version = ET.parse(os.path.join(clone, "data", f"{APP_ID}.metainfo.xml")).find("releases/release").get("version")
    debs = glob.glob(os.path.join(clone, "*.deb"))
    if debs != [os.path.join(clone, f"agent_{version}_amd64.deb")]:
        fail(f"make deb made {debs}, not agent_{version}_amd64.deb")
    return debs[0], version


def check_package(deb):
    """The package's own fields and files, before it is installed; returns its paths."""
    fields = {name: run(["dpkg-deb", "-f", deb, name]).stdout.strip() for name in
              ["Depends", "Recommends", "Maintainer", "Section", "Priority", "Description", "Installed-Size"]}
    for name, value in fields.items():
        if not value:
            fail(f"the package has no {name}")
    depends = [relation.split()[0] for relation in fields["Depends"].split(", ")]
    for package in LOADED_AT_RUN_TIME + ["libgtk-4-1", "libadwaita-1-0"]:
        if package not in depends:
            fail(f"Depends lacks {package}: {fields['Depends']}")
    recommends = [relation.split()[0] for relation in fields["Recommends"].split(", ")]
    # What agent-install-runtime builds with, and the font for the emoji in replies.
    for package in ["python3-venv", "build-essential", "fonts-noto-color-emoji"]:
        if package not in recommends:
            fail(f"Recommends lacks {package}: {fields['Recommends']}")
    if "swift" in fields["Depends"]:
        fail(f"Depends names the Swift runtime, which is linked in: {fields['Depends']}")
    control = os.path.join(os.path.dirname(deb), "DEBIAN")
    subprocess.run(["dpkg-deb", "--control", deb, control], check=True)
    if sorted(os.listdir(control)) != ["control", "md5sums"]:
        fail(f"the package's control files are {sorted(os.listdir(control))}: maintainer scripts are not needed")
    paths = []
    for line in run(["dpkg-deb", "-c", deb]).stdout.splitlines():
        mode, owner, _, _, _, path = line.split(None, 5)
        path = path[1:].rstrip("/") or "/"
        paths.append(path)
        executable = path.startswith("/usr/bin/")
        expected = "drwxr-xr-x" if mode.startswith("d") else "-rwxr-xr-x" if executable else "-rw-r--r--"
        if owner != "root/root" or mode != expected:
            fail(f"{path} is {mode} {owner}, not {expected} root/root")
    for path in [f"/usr/{file}" for file in INSTALLED_FILES] + ["/usr/share/doc/agent/copyright", "/usr/share/doc/agent/changelog.gz"]:
        if path not in paths:
            fail(f"the package lacks {path}")
    if not all(path == "/" or path.startswith("/usr") for path in paths):
        fail(f"the package installs outside /usr: {paths}")
    return paths


def lint(deb):
    result = run(["lintian", deb])
    print("== lintian\n" + result.stdout + result.stderr, flush=True)
    errors = [line for line in result.stdout.splitlines() if line.startswith("E:")]
    if errors or result.returncode != 0:
        fail(f"lintian reports errors (exit {result.returncode}): {errors}")


def check_installed(clone, version, files, since):
    for binary in ["agent", "agent-cli"]:
        path = f"/usr/bin/{binary}"
        said = run([path, "--version"]).stdout.strip()
        if said != f"{binary} {version}":
            fail(f"{path} --version says {said!r}")
        linked = run(["ldd", path]).stdout
        if "not found" in linked or "swift" in linked:
            fail(f"{path} links what is not installed, or the Swift runtime:\n{linked}")
    if run(["/usr/bin/agent-cli", "--help"]).returncode != 0:
        fail("agent-cli --help failed")
    if not os.access("/usr/bin/agent-install-runtime", os.X_OK):
        fail("agent-install-runtime is not installed as a program")

    desktop_file = f"/usr/share/applications/{APP_ID}.desktop"
    validated = run(["desktop-file-validate", desktop_file])
    if validated.returncode != 0:
        fail(f"desktop-file-validate {desktop_file}: {validated.stdout}{validated.stderr}")
    with open(f"/usr/share/dbus-1/services/{APP_ID}.service") as service:
        if "Exec=/usr/bin/agent --gapplication-service" not in service.read():
            fail("the D-Bus service file does not start /usr/bin/agent")
    with open(f"/usr/share/gnome-shell/search-providers/{APP_ID}.search-provider.ini") as provider:
        text = provider.read()
        if f"DesktopId={APP_ID}.desktop" not in text or f"BusName={APP_ID}" not in text:
            fail(f"the search provider does not name Agent: {text}")

    # dpkg's triggers: glib's compiles the schema, gtk-update-icon-cache's updates the icon cache.
    schemas = "/usr/share/glib-2.0/schemas/gschemas.compiled"
    if schemas in files:
        fail("the package ships gschemas.compiled, which the trigger owns")
    keys = run(["gsettings", "list-keys", APP_ID])
    if keys.returncode != 0 or "context-budget" not in keys.stdout.split():
        fail(f"gsettings does not read the installed schema: {keys.stdout}{keys.stderr}")
    cache = "/usr/share/icons/hicolor/icon-theme.cache"
    if not os.path.exists(cache) or os.path.getmtime(cache) < since:
        fail("the hicolor icon cache was not updated by the install")

    languages = [os.path.splitext(os.path.basename(po))[0] for po in glob.glob(os.path.join(clone, "po", "*.po"))]
    for language in languages:
        if not any(path.startswith(f"/usr/share/locale/{language}/LC_MESSAGES/") and path.endswith(".mo") for path in files):
            fail(f"no translation installed for {language} (po/{language}.po)")
    return languages


def user_files(home):
    """Every file under a user's folders, with its size and modification time."""
    stats = {os.path.join(folder, name): os.lstat(os.path.join(folder, name))
             for folder, _, names in os.walk(home) for name in names}
    return {path: (stat.st_size, stat.st_mtime_ns) for path, stat in stats.items()}


def launch(home):
    """Launches /usr/bin/agent from its menu entry, as a new user (folders under `home`) with no
    local model runtime."""
    for name in ["DATA", "CONFIG", "CACHE", "STATE"]:
        os.environ[f"XDG_{name}_HOME"] = os.path.join(home, name.lower())
    os.environ["AGENT_RUNTIME_DIR"] = os.path.join(home, "runtime")
    os.environ.setdefault("GSK_RENDERER", "cairo")
    info = Gio.DesktopAppInfo.new(f"{APP_ID}.desktop")
    if info is None or info.get_filename() != f"/usr/share/applications/{APP_ID}.desktop":
        fail(f"the menu does not find the package's desktop file: {info and info.get_filename()}")
    if info.get_name() != "Agent" or not info.should_show() or info.get_executable() != "/usr/bin/agent":
        fail(f"the menu entry is {info.get_name()!r}, shown={info.should_show()}, runs {info.get_executable()}")
    window, pid = launch_from_menu(info, "/usr/bin/agent")
    stop(pid)
    return window


def main():
    # What the menu and GSettings read: the system's data only, not the build tree's schema.
    os.environ["XDG_DATA_DIRS"] = "/usr/share"
    os.environ.pop("GSETTINGS_SCHEMA_DIR", None)
    if installed():
        print("== purging the agent package a previous run left", flush=True)
        purge()
    before = traces()
    if before:
        fail(f"Agent's files are under /usr already, from no package (make uninstall PREFIX=/usr?): {before}")
    work = tempfile.mkdtemp(prefix="agent-deb-")
    os.chmod(work, 0o755)  # apt's _apt user reads the package from here
    try:
        deb, version = build(os.path.join(work, "agent"))
        paths = check_package(deb)
        lint(deb)
        existing = {path for path in paths if os.path.isdir(path)}

        print(f"== apt-get install ./{os.path.basename(deb)}", flush=True)
        since = time.time()
        result = run(SUDO + ["apt-get", "install", "-y", f"./{os.path.basename(deb)}"], cwd=os.path.dirname(deb), env=APT_ENV)
        if result.returncode != 0 or not installed():
            fail(f"apt-get install failed:\n{result.stdout}{result.stderr}")
        files = run(["dpkg", "-L", "agent"]).stdout.split("\n")
        files = sorted(path for path in files if path and path != "/.")
        if set(files) != set(paths) - {"/"}:
            fail(f"dpkg -L and the package's contents differ: {sorted(set(files) ^ (set(paths) - {'/'}))}")
        languages = check_installed(os.path.dirname(deb), version, files, since)
        home = os.path.join(work, "home")
        window = launch(home)
        # What the user's run left (chats, settings), and a stand-in for a runtime the set-up
        # made (its manifest's shape). What keeps them is that the package has no maintainer
        # scripts (check_package): dpkg removes the package's own files and nothing else. This
        # checks the outcome in a home of the test's own.
        os.makedirs(os.path.join(home, "runtime"), exist_ok=True)
        with open(os.path.join(home, "runtime", "manifest.json"), "w") as f:
            f.write('{"llama_server": "bin/llama-server", "models": {}}\n')
        kept = user_files(home)
        print(f"PASS: installed agent {version}: {len(files)} paths, translations {languages or 'none (no po/)'}; "
              f"/usr/bin/agent opened window {window} from the menu entry; its user's files: "
              f"{', '.join(sorted(os.path.relpath(path, home) for path in kept))}", flush=True)

        print("== apt-get purge agent", flush=True)
        purge()
        left = [path for path in files if os.path.lexists(path) and not (os.path.isdir(path) and path in existing)]
        if left:
            fail(f"apt-get purge left files behind: {left}")
        if traces():
            fail(f"Agent's files are left under /usr: {traces()}")
        if run(["gsettings", "list-keys", APP_ID]).returncode == 0:
            fail("the settings schema is still compiled in after the purge")
        if user_files(home) != kept:
            fail(f"apt-get purge changed the user's files: {sorted(set(kept.items()) ^ set(user_files(home).items()))}")
        print(f"PASS: purged; all {len(files)} paths of the package gone, the schema compiled out, "
              f"the user's {len(kept)} files as they were", flush=True)
    finally:
        if installed():
            purge()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
