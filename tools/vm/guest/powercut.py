#!/usr/bin/env python3
"""Power cuts below the page cache (runs in the VM guest, started by powercut-scenario).

The library lives on ext4 on /dev/vda behind dm-flakey; the "USB stick" is vfat on /dev/vdb
behind a second dm-flakey device. One cut: the appliance (and `pinhole library import`) work
on the library; at a random instant both tables switch to drop_writes (the cut); the
processes are killed; the file systems are unmounted (their dirty pages go nowhere); the
tables are restored and the file systems mounted again (ext4 replays its journal); the
appliance starts on the library and the checks run through its line-mode console.

An answer counts as acknowledged only when the line was read before the cut began (each
line is stamped when read; the cut is stamped before its first dmsetup call), so every
counted acknowledgement is ordered before the first dropped write.

Environment: HIL_REPO, HIL_PINHOLE, GPIOSIM_SYSFS, POWERCUT_CUTS, POWERCUT_SEED,
POWERCUT_EPOCH (cuts per fresh file system, default 10), POWERCUT_WINDOW (seconds of work
before the latest cut, default 8). Writes /run/hil/powercut-cuts.jsonl (one record a cut),
/run/hil/powercut-summary (the final line) and /run/hil/powercut-appliance.log.
"""

import json
import os
import queue
import random
import re
import signal
import subprocess
import sys
import threading
import time
import zlib

REPO = os.environ["HIL_REPO"]
PINHOLE = os.environ["HIL_PINHOLE"]
GPIOSIM = os.environ.get("GPIOSIM_SYSFS", "")
CUTS = int(os.environ.get("POWERCUT_CUTS", "20"))
SEED = int(os.environ.get("POWERCUT_SEED", "1"))
EPOCH = int(os.environ.get("POWERCUT_EPOCH", "10"))
WINDOW = float(os.environ.get("POWERCUT_WINDOW", "8"))
BUDGET = float(os.environ.get("POWERCUT_BUDGET", "0"))  # seconds; 0: no limit
RESULTS = "/run/hil"
MNT, STICK = "/run/powercut/library-disk", "/run/powercut/stick"
LIB, CFG = MNT + "/library", MNT + "/etc/pinhole.toml"
DEVICES = {"pclib": ("/dev/vda", MNT, "ext4"), "pcstick": ("/dev/vdb", STICK, "vfat")}
rng = random.Random(SEED)
# The first cuts of a series are targeted: each makes one kind of change and cuts at once
# after its answer, before the file system's own periodic commit could make it durable.
TARGETED = [["record"], ["import"], ["settings"], ["album", "album"], ["rotate"], ["export"], ["delete"],
            ["purge"], ["capture"], ["timelapse"]]
# Recordings: vimc under TCG makes about a frame a second at 320x240 (the still stream the clip
# is scaled from), so a keyframe (and a fragment, made durable when the next begins) every
# GOP frames: keyframe_s x fps.
VIDEO_CONFIG = "\n[video]\nsize = \"320x240\"\nfps = 10\nkeyframe_s = 0.2\n"
GOP = 2
STILL_SIZE = "320x240"
# RECORD_SHARE of the random cuts' ops are recordings (POWERCUT_RECORD_SHARE; `make powercut-record`
# raises it); a targeted cut waits for RECORD_FRAMES frames in the file before it cuts.
RECORD_SHARE = float(os.environ.get("POWERCUT_RECORD_SHARE", "0.06"))
RECORD_FRAMES = 3 * GOP


def report_check(status, name, text):
    """One check's result, as hil-lib.sh's hil_check: a report line and a "STATUS\tNAME" line
    for the host, which declares `cut 0` … `cut N-1` (tools/powercut)."""
    with open(f"{RESULTS}/checks", "a") as f:
        f.write(f"{status}\t{name}\n")
    with open(f"{RESULTS}/report", "a") as f:
        f.write(f"hil: {status} {name}: {text}\n")


def log(*parts):
    up = open("/proc/uptime").read().split()[0]
    print(f"[{float(up):8.2f}s] powercut: " + " ".join(str(p) for p in parts), flush=True)


def run(*args, check=True, timeout=120):
    done = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return done


# MARK: dm-flakey


def sectors(device):
    return int(open(f"/sys/block/{os.path.basename(device)}/size").read())


def table(device, cut):
    # flakey: <dev> <offset> <up secs> <down secs> [features]; up 0 / down 180 with
    # drop_writes discards every write while reads still work.
    if cut:
        return f"0 {sectors(device)} flakey {device} 0 0 180 1 drop_writes"
    return f"0 {sectors(device)} flakey {device} 0 180 0"


def dm(*args):
    run("dmsetup", "--noudevsync", *args)


def switch_tables(cut):
    names = list(DEVICES)
    for name in names:
        dm("load", name, "--table", table(DEVICES[name][0], cut))
    # --nolockfs: no freeze, so nothing is flushed on the way down (a freeze would sync).
    for name in names:
        dm("suspend", "--nolockfs", name)
    for name in names:
        dm("resume", name)


def mount_all():
    for name, (_, point, fs) in DEVICES.items():
        os.makedirs(point, exist_ok=True)
        run("mount", "-t", fs, f"/dev/mapper/{name}", point)


def unmount_all():
    for _, (_, point, _) in DEVICES.items():
        for attempt in range(50):
            if run("umount", point, check=False).returncode == 0:
                break
            time.sleep(0.1)
        else:
            raise RuntimeError(f"cannot unmount {point}")
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def fresh_file_systems():
    for name, (device, point, fs) in DEVICES.items():
        if os.path.ismount(point):
            run("umount", point)
        if not os.path.exists(f"/dev/mapper/{name}"):
            dm("create", name, "--table", table(device, False))
            run("dmsetup", "mknodes", name)
        if fs == "ext4":
            run("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", f"/dev/mapper/{name}")
        else:
            run("mkfs.vfat", "-n", "PINHOLE", f"/dev/mapper/{name}")
    mount_all()
    os.makedirs(LIB, exist_ok=True)
    os.makedirs(os.path.dirname(CFG), exist_ok=True)
    with open(CFG, "w") as f:
        f.write("# pinhole configuration (power-cut test)\n[capture]\nquality = 90\n" + VIDEO_CONFIG)
        f.flush()
        os.fsync(f.fileno())
    for path in (os.path.dirname(CFG), MNT):
        fd = os.open(path, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)


def replays_so_far():
    text = run("dmesg").stdout
    return text.count("recovery complete")


# MARK: the appliance


class Appliance:
    """`pinhole run` on board/vm with its console in line mode on stdin/stdout."""

    def __init__(self, logfile):
        self.proc = subprocess.Popen(
            [PINHOLE, "run", "--board", "board/vm", "--library", LIB, "--config", CFG,
             "--console", "stdio", "--console-mode", "line"],
            cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=logfile)
        self.answers = queue.Queue()
        self.events = []  # (stamp, line)
        self.transcript = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for raw in self.proc.stdout:
            stamp = time.monotonic()
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.transcript.append((stamp, line))
            if line.startswith("event "):
                self.events.append((stamp, line))
            elif line.startswith(("ok", "error", "{", "[")):
                self.answers.put((stamp, line))
        self.answers.put((time.monotonic(), None))

    def where_stuck(self):
        """Each thread's name and kernel wait channel and stack, to say where a start hung."""
        lines = []
        base = f"/proc/{self.proc.pid}/task"
        try:
            tasks = sorted(os.listdir(base), key=int)
        except OSError as error:
            return [f"no /proc entry for pid {self.proc.pid}: {error}"]
        for tid in tasks:
            def read(name):
                try:
                    with open(f"{base}/{tid}/{name}") as f:
                        return f.read().strip()
                except OSError:
                    return "?"
            stack = read("stack").replace("\n", " | ")
            lines.append(f"thread {tid} {read('comm')}: wchan {read('wchan')}; kernel stack: {stack}")
        return lines

    def ask(self, command, timeout=90):
        """Sends one line; returns (stamp, answer) or (stamp, None) at exit or timeout."""
        try:
            self.proc.stdin.write((command + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return time.monotonic(), None
        try:
            return self.answers.get(timeout=timeout)
        except queue.Empty:
            return time.monotonic(), None

    def ask_json(self, command, timeout=90):
        _, line = self.ask(command, timeout)
        if line is None or not line.startswith(("{", "[")):
            raise CheckError(f"'{command}' answered {line!r}")
        return json.loads(line)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


class CheckError(Exception):
    pass


# MARK: the model of what was acknowledged


class Model:
    """What the library must hold: only acknowledged changes move it."""

    def __init__(self):
        self.photos = {}  # id -> "active" | "deleted" | "purged"
        self.albums = {}  # album id -> set of photo ids
        self.edits = {}  # photo id -> revision
        self.quality = 90
        self.exports = {}  # stick path -> photo id
        self.decoded = set()
        self.videos = {}  # clip id -> frames ffprobe counted when it was first checked
        self.quarantined = set()  # quarantined recording files seen

    def active(self):
        return [p for p, s in self.photos.items() if s == "active"]

    def deleted(self):
        return [p for p, s in self.photos.items() if s == "deleted"]


class Op:
    """One request: what it changes in the model once acknowledged."""

    def __init__(self, kind, sent):
        self.kind, self.sent, self.ack, self.answer = kind, sent, None, None
        self.apply = lambda model: None
        self.targets = []  # photo ids whose state may differ when this op is in flight


# MARK: work


def press_shutter():
    path = f"{GPIOSIM}/sim_gpio17/pull"
    with open(path, "w") as f:
        f.write("pull-down")
    time.sleep(0.15)
    with open(path, "w") as f:
        f.write("pull-up")


def make_import_dir(index):
    """Two small JPEGs with unique noise (cjpeg from a PPM), in a fresh directory on tmpfs."""
    directory = f"/tmp/import-{index}"
    os.makedirs(directory, exist_ok=True)
    for n in range(2):
        width, height = 160, 120
        pixels = bytes(rng.getrandbits(8) for _ in range(width * height * 3))
        ppm = f"{directory}/p{n}.ppm"
        with open(ppm, "wb") as f:
            f.write(b"P6 %d %d 255\n" % (width, height) + pixels)
        run("cjpeg", "-quality", "85", "-outfile", f"{directory}/img{n}.jpg", ppm)
        os.remove(ppm)
    return directory


class Worker:
    """Sends a random mix of work until the cut; records each op with its answer stamp."""

    def __init__(self, app, model, cut_event, counters, index, script=None):
        self.app, self.model, self.cut, self.counters, self.index = app, model, cut_event, counters, index
        self.script = script
        self.created_albums = []
        self.ops = []
        self.child = None
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self):
        kinds = ["capture", "capture", "burst", "press", "rotate", "crop", "adjust", "album", "album",
                 "delete", "restore", "purge", "import", "settings", "settings", "export", "timelapse"]
        n = 0
        script = list(self.script or [])
        while not self.cut.is_set() and self.app.proc.poll() is None:
            if self.script is not None and not script:
                return
            if self.script is not None:
                kind = script.pop(0)
            else:
                kind = "record" if rng.random() < RECORD_SHARE else rng.choice(kinds)
            try:
                op = self._do(kind, n)
            except Exception as error:  # an answer after the cut may be anything
                if not self.cut.is_set():
                    self.ops.append(Op("error", time.monotonic()))
                    self.ops[-1].answer = f"{kind}: {error}"
                break
            n += 1
            if op is not None:
                self.ops.append(op)

    def _send(self, op, command, timeout=90):
        op.ack, op.answer = self.app.ask(command, timeout)
        return op.answer

    def _pick(self, ids):
        return rng.choice(ids) if ids else None

    def _do(self, kind, n):
        model = self.model
        op = Op(kind, time.monotonic())
        if kind == "capture":
            answer = self._send(op, "capture")
            m = re.match(r"ok saved (\S+)", answer or "")
            if m:
                pid = m.group(1)
                op.apply = lambda md: md.photos.__setitem__(pid, "active")
        elif kind == "burst":
            answer = self._send(op, "capture --burst 3")
            m = re.match(r"ok saved \d+ photos: ([^;]*)", answer or "")
            if m:
                ids = m.group(1).split()
                op.apply = lambda md: [md.photos.__setitem__(i, "active") for i in ids]
        elif kind == "timelapse":
            # A short timelapse: its shots are acknowledged by their `event saved` lines, and one
            # cut mid-series resumes from its durable state at the next start. Waits for the first
            # shot (slots a slow capture overran are counted as missed, not shot).
            before = len(self.app.events)
            answer = self._send(op, "timelapse start --every 1s --count 2")
            if answer and answer.startswith("ok timelapse"):
                deadline = time.monotonic() + 30
                while len(self.app.events) < before + 1 and time.monotonic() < deadline and not self.cut.is_set():
                    time.sleep(0.05)
        elif kind == "press":
            before = len(self.app.events)
            press_shutter()
            deadline = time.monotonic() + 60
            while len(self.app.events) == before and time.monotonic() < deadline and not self.cut.is_set():
                time.sleep(0.05)
            return None  # the event itself is the acknowledgement (see Cut.evaluate)
        elif kind in ("rotate", "crop", "adjust"):
            pid = self._pick(model.active())
            if pid is None:
                return None
            extra = {"rotate": "--degrees 90", "crop": "--rect 16,16,64,48",
                     "adjust": f"--exposure {rng.choice(['0.3', '-0.3', '0.5'])}"}[kind]
            op.targets = [pid]
            answer = self._send(op, f"library edit {kind} {pid} {extra} --json")
            revision = answered(answer).get("revision")
            if revision is not None:
                op.apply = lambda md: md.edits.__setitem__(pid, revision)
        elif kind == "album":
            albums = sorted(model.albums) + self.created_albums
            if not albums or rng.random() < 0.15:
                answer = self._send(op, f"library album create a{self.index}-{n} --json")
                aid = answered(answer).get("id")
                if aid is not None:
                    op.apply = lambda md: md.albums.__setitem__(aid, set())
                    op.album = aid
                    self.created_albums.append(aid)
            else:
                aid = rng.choice(albums)
                members = sorted(model.albums.get(aid, set()))
                if members and rng.random() < 0.35:
                    pid = rng.choice(members)
                    verb = "remove"
                else:
                    pid = self._pick(model.active())
                    verb = "add"
                if pid is None:
                    return None
                op.album, op.targets = aid, [pid]
                answer = self._send(op, f"library album {verb} {aid} {pid} --json")
                if pid in answered(answer).get("ok", []):
                    if verb == "add":
                        op.apply = lambda md: md.albums[aid].add(pid)
                    else:
                        op.apply = lambda md: md.albums[aid].discard(pid)
        elif kind in ("delete", "restore", "purge"):
            source = model.active() if kind == "delete" else model.deleted()
            pid = self._pick(source)
            if pid is None:
                return None
            op.targets = [pid]
            answer = self._send(op, f"library {kind} {pid} --json")
            # Only what the answer says was done: within one cut the worker may pick a photo
            # that an earlier request of the same cut already purged, and gets an error.
            if pid in answered(answer).get("ok", []):
                state = {"delete": "deleted", "restore": "active", "purge": "purged"}[kind]
                op.apply = lambda md: md.photos.__setitem__(pid, state)
        elif kind == "import":
            directory = make_import_dir(f"{self.index}-{n}")
            op.sent = time.monotonic()
            self.child = subprocess.Popen(
                [PINHOLE, "library", "--library", LIB, "import", directory, "--json"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)
            out, err = self.child.communicate()
            op.ack = time.monotonic()
            op.answer = out.decode().strip() or err.decode().strip()
            if self.child.returncode == 0:
                ids = json.loads(out)["imported"]
                op.apply = lambda md: [md.photos.__setitem__(i, "active") for i in ids]
            self.child = None
        elif kind == "settings":
            quality = rng.randint(60, 98)
            op.quality = quality
            answer = self._send(op, f"set capture.quality {quality}")
            if answer and answer.startswith("ok capture.quality"):
                op.apply = lambda md: setattr(md, "quality", quality)
        elif kind == "record":
            # The still size vimc can stream under TCG (kept in camera-settings.toml), then a clip
            # the cut interrupts. `record status --json` is read until the cut: the frames the
            # file held at the last reading before the cut, less one fragment, must survive it.
            def still_size():
                camera = answered(self.app.ask("status --json", 60)[1]).get("camera") or {}
                return camera.get("stillSize")
            if still_size() != STILL_SIZE:
                self.app.ask(f"camera size {STILL_SIZE}", 120)
                # The camera restarts at the new size: record only once it runs again.
                deadline = time.monotonic() + 120
                while still_size() != STILL_SIZE and not self.cut.is_set() and time.monotonic() < deadline:
                    time.sleep(0.5)
            answer = self._send(op, "record start --max 600")
            m = re.match(r"ok recording (\d+)", answer or "")
            if not m:
                return op
            op.recording = m.group(1)
            op.frames = []  # (stamp, frames in the file)
            deadline = time.monotonic() + (180 if self.script is not None else 3)
            while not self.cut.is_set() and time.monotonic() < deadline:
                stamp, line = self.app.ask("record status --json", 60)
                status = answered(line)
                if status.get("recording"):
                    op.frames.append((stamp, int(status.get("frames", 0))))
                    if self.script is not None and op.frames[-1][1] >= RECORD_FRAMES:
                        break
                time.sleep(0.3)
        elif kind == "export":
            if not model.active():
                return None
            target = f"{STICK}/export-{self.index}-{n}"
            answer = self._send(op, f"library export {target} --limit 2 --sort added --desc --json")
            if answer and answer.startswith("{"):
                written = json.loads(answer)["written"]
                op.apply = lambda md: [md.exports.__setitem__(w, None) for w in written]
        return op


# MARK: checks after a cut


def file_crc(path):
    with open(path, "rb") as f:
        return "crc32:%08x" % (zlib.crc32(f.read()) & 0xFFFFFFFF)


EDIT_KINDS = ("rotate", "crop", "adjust")


def answered(answer):
    """A JSON answer's object, or {} for an error, a non-JSON line or no answer."""
    if not answer or not answer.startswith("{"):
        return {}
    try:
        value = json.loads(answer)
    except ValueError:
        return {}
    return value if isinstance(value, dict) and "error" not in value else {}


def check_after_cut(app, model, maybe, record):
    """Checks the restarted appliance's library against the model; returns problem lines."""
    problems = []
    fsck = app.ask_json("library fsck --verify --json", timeout=300)
    record["fsck_clean"] = bool(fsck.get("clean"))
    if not fsck.get("clean"):
        problems.append(f"fsck --verify not clean: {json.dumps(fsck['report'])[:400]}")
    listed = {a["id"]: a for a in app.ask_json("library list --limit 100000 --json")}
    deleted = {a["id"]: a for a in app.ask_json("library list --deleted --limit 100000 --json")}
    maybe_ids = set()
    for op in maybe:
        maybe_ids.update(op.targets)
    for pid, state in model.photos.items():
        if pid in maybe_ids:
            # The request in flight may or may not have landed: the next cut starts from what is there.
            unsure_where = "active" if pid in listed else "deleted" if pid in deleted else "purged"
            if unsure_where != state:
                model.photos[pid] = unsure_where
            continue
        where = "active" if pid in listed else "deleted" if pid in deleted else "purged"
        if where != state:
            kind = {"active": "photo lost" if where == "purged" else "restore lost",
                    "deleted": "deletion lost" if where == "active" else "photo lost",
                    "purged": "purge lost"}[state]
            problems.append(f"{kind}: {pid} acknowledged {state}, found {where}")
            if state != "purged" and where == "purged":
                record["lost"].append(pid)
            model.photos[pid] = where  # report each loss once, at the cut that caused it
    for pid, asset in list(listed.items()) + list(deleted.items()):
        if model.photos.get(pid) in ("active", "deleted") and pid not in model.decoded:
            path = asset["file"]
            try:
                crc = file_crc(path)
            except OSError as error:
                problems.append(f"photo {pid}: {error}")
                record["lost"].append(pid)
                continue
            if crc != asset["checksum"]:
                problems.append(f"photo {pid}: checksum {crc}, index says {asset['checksum']}")
                record["lost"].append(pid)
                continue
            decoded = subprocess.run(["djpeg", "-scale", "1/8", "-outfile", "/dev/null", path],
                                     capture_output=True)
            if decoded.returncode != 0:
                problems.append(f"photo {pid}: djpeg cannot decode it: {decoded.stderr.decode()[:200]}")
                record["lost"].append(pid)
                continue
            model.decoded.add(pid)
    gone = []
    for aid, members in list(model.albums.items()):
        in_flight = [op for op in maybe if getattr(op, "album", None) == aid]
        _, line = app.ask(f"library album list {aid} --json")
        if line is None or not line.startswith("["):
            problems.append(f"album {aid} acknowledged, now: {line}")
            gone.append(aid)
            continue
        found = {a["id"] for a in json.loads(line)}
        unsure = set()
        for op in in_flight:
            unsure.update(op.targets)
        active = {p for p, s in model.photos.items() if s == "active"} - unsure
        if (found & active) != (members & active):
            problems.append(f"album {aid}: holds {sorted(found & active)}, acknowledged {sorted(members & active)}")
            model.albums[aid] = found
        elif unsure:
            # Members a request in flight touched: the next cut starts from what is there.
            model.albums[aid] = (members - unsure) | (found & unsure)
    for aid in gone:
        del model.albums[aid]
    for pid in sorted(maybe_ids):
        # An edit in flight is wholly there (one revision more) or wholly absent; either way
        # the next cut starts from the revision found.
        if model.photos.get(pid) == "purged" or not any(op.kind in EDIT_KINDS and pid in op.targets for op in maybe):
            continue
        _, line = app.ask(f"library edit show {pid} --json")
        show = json.loads(line) if line and line.startswith("{") else {}
        acknowledged = model.edits.get(pid, 0)
        found = show.get("revision", 0)
        if found not in (acknowledged, acknowledged + 1):
            problems.append(f"edit of {pid}: revision {found}, acknowledged {acknowledged} and one in flight")
        if found:
            model.edits[pid] = found
    for pid, revision in list(model.edits.items()):
        if model.photos.get(pid) == "purged" or pid in maybe_ids:
            continue
        _, line = app.ask(f"library edit show {pid} --json")
        show = json.loads(line) if line and line.startswith("{") else {}
        if show.get("revision") != revision:
            problems.append(f"edit of {pid}: revision {show.get('revision')}, acknowledged {revision}")
            model.edits[pid] = show.get("revision")
        elif subprocess.run(["djpeg", "-scale", "1/8", "-outfile", "/dev/null", show["render"]],
                            capture_output=True).returncode != 0:
            problems.append(f"edit of {pid}: render {show['render']} does not decode")
    problems += check_config(model, maybe)
    problems += check_exports(model)
    problems += check_recordings(app, model, record)
    return problems


def probe_clip(path):
    """(frames ffprobe decodes, error text or None): every frame must decode without an error."""
    counted = run("ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                  "stream=codec_name,nb_read_frames", "-of", "csv=p=0", path, check=False)
    decoded = run("ffmpeg", "-nostdin", "-v", "error", "-xerror", "-i", path, "-f", "null", "-", check=False)
    fields = counted.stdout.strip().split(",")
    if counted.returncode != 0 or len(fields) != 2 or fields[0] != "h264" or not fields[1].isdigit():
        return 0, f"ffprobe: {counted.stdout.strip()} {counted.stderr.strip()[:200]}"
    if decoded.returncode != 0 or decoded.stderr.strip():
        return int(fields[1]), f"ffmpeg -xerror: {decoded.stderr.strip()[:200]}"
    return int(fields[1]), None


def check_recordings(app, model, record):
    """A recording the cut interrupted is adopted as a clip holding at least the frames its file
    had at the last `record status` before the cut less one fragment (GOP frames), every frame
    decoding; one cut before its first fragment was whole keeps the frames written whole (adopted),
    or, holding not one, is removed with a recovery line saying so (never quarantined: a removed
    one may not have had a durable frame, GOP); a cut before its first fragment made its name
    durable may leave no file at all (none on the card at the remount: nothing was durable, so
    nothing is lost). A clip saved before the cut is there whole. No
    `.recording` file is left behind, in the library or in quarantine. Returns problem lines."""
    problems = []
    videos = app.ask_json("library list --type video --limit 100000 --json")
    leftovers = [os.path.join(d, f) for d, _, files in os.walk(LIB) for f in files
                 if f.endswith(".recording") and "/quarantine" not in d]
    if leftovers:
        problems.append(f"recording files left in the library after the start: {leftovers[:3]}")
    quarantine = os.path.join(LIB, "quarantine")
    quarantined = {f for f in (os.listdir(quarantine) if os.path.isdir(quarantine) else []) if ".recording" in f}
    new_quarantined = quarantined - model.quarantined
    model.quarantined |= quarantined
    if new_quarantined:
        problems.append(f"recording files quarantined instead of adopted or removed: {sorted(new_quarantined)}")
    at_remount = record.get("recording_files_at_remount", [])
    removed = re.findall(r"recovery: removed recording cut before its first frame (\S+):",
                         start_log(record.get("log_from", 0)))
    new = [v for v in videos if v["id"] not in model.videos]
    for video in new:
        frames, error = probe_clip(video["file"])
        model.videos[video["id"]] = frames
        video["frames"] = frames
        if error:
            problems.append(f"clip {video['id']} ({frames} frames): {error}")
    listed_files = {os.path.basename(v["file"]) for v in videos}
    saved_files = {os.path.basename(r["saved"]) for r in record["recordings"] if r.get("saved")}
    adopted = [v for v in new if os.path.basename(v["file"]) not in saved_files]
    for rec in record["recordings"]:
        if rec.get("saved"):
            if os.path.basename(rec["saved"]) not in listed_files:
                problems.append(f"recording {rec['id']}: saved as {rec['saved']} before the cut, not in the library")
            continue
        want = rec["frames"] - GOP
        rec["adopted_frames"] = [v["frames"] for v in adopted]
        rec["quarantined"] = sorted(new_quarantined)
        rec["removed"] = removed
        if len(adopted) + len(removed) > 1:
            problems.append(f"recording {rec['id']}: {len(adopted)} new clips and {len(removed)} removed "
                            f"recordings for one recording: {[v['id'] for v in adopted]} {removed}")
        elif adopted:
            if adopted[0]["frames"] < want:
                problems.append(f"recording {rec['id']}: adopted with {adopted[0]['frames']} frames; its file held "
                                f"{rec['frames']} before the cut, so at least {want} were durable")
        elif want >= 1:
            problems.append(f"recording {rec['id']}: lost: {rec['frames']} frames in the file before the cut "
                            f"(at least {want} durable), no clip adopted"
                            + (f", removed as empty {removed}" if removed else "")
                            + (f", quarantined {sorted(new_quarantined)}" if new_quarantined else ""))
        elif not removed and not at_remount:
            # Its name was not durable yet: `ok recording N` answers before the recorder's lane
            # creates the file, and the directory is synced with the first fragment, so a cut
            # before that leaves no file at all. Nothing was durable, so nothing is lost; a file
            # that was on the card must have been adopted or removed (checked above).
            record["clips_nameless"] = record.get("clips_nameless", 0) + 1
        elif not removed:
            problems.append(f"recording {rec['id']}: neither adopted nor reported removed at the start "
                            f"({rec['frames']} frames in the file before the cut; on the card at the "
                            f"remount: {at_remount})")
    if record.get("script") == ["record"] and not any(not r["saved"] for r in record["recordings"]):
        problems.append("the targeted recording cut interrupted no recording (record start: "
                        + "; ".join(a[2] for a in record["acks"] if a[0] == "record")[:200] + ")")
    record["clips_adopted"] = len(adopted)
    record["clips_quarantined"] = len(new_quarantined)
    record["clips_removed"] = len(removed)
    return problems


def start_log(offset):
    """What the appliance logged since `offset` of its log (this start's recovery lines)."""
    with open(f"{RESULTS}/powercut-appliance.log", "rb") as f:
        f.seek(offset)
        return f.read().decode("utf-8", "replace")


def check_config(model, maybe):
    try:
        text = open(CFG).read()
    except OSError as error:
        return [f"configuration: {error}"]
    allowed = {model.quality} | {op.quality for op in maybe if hasattr(op, "quality")}
    m = re.search(r"^\s*quality\s*=\s*(\d+)\s*$", text, re.M)
    if not text.strip() or not text.endswith("\n") or "[capture]" not in text or m is None:
        return [f"configuration half-written or empty: {text!r}"]
    if int(m.group(1)) not in allowed:
        problem = f"configuration: quality {m.group(1)}, acknowledged {model.quality} (in flight: {sorted(allowed)})"
        model.quality = int(m.group(1))
        return [problem]
    model.quality = int(m.group(1))
    return []


def check_exports(model):
    problems = []
    for path in list(model.exports):
        if not os.path.exists(path):
            problems.append(f"export lost: {path} was acknowledged")
            del model.exports[path]
    return problems


def stick_files(model, app_listing):
    """Checks every file on the stick: an acknowledged export must hold its photo's exact bytes;
    returns (problems, torn files of exports the cut interrupted, temporary files left)."""
    crcs = app_listing
    problems, torn, temps = [], [], []
    for root, _, files in os.walk(STICK):
        for name in files:
            path = os.path.join(root, name)
            if name.startswith(".") or name.endswith(".tmp"):
                temps.append(path)
                continue
            if file_crc(path) in crcs:
                continue
            size = os.path.getsize(path)
            if path in model.exports:
                problems.append(f"export silently truncated: {path} ({size} bytes) was acknowledged")
                del model.exports[path]
            else:
                torn.append(f"{path} ({size} bytes)")
    return problems, torn, temps


def torn_path(entry):
    """The path of a `stick_files` torn entry ("PATH (N bytes)")."""
    return entry.rsplit(" (", 1)[0]


def check_interrupted_exports(app, model, crcs, torn, temps):
    """Every torn file and temporary file on the stick must lie in the folder of an export that
    the start reported as interrupted (`library exports`); redoing each must make every file of
    it whole and leave no temporary file. Returns (problems, exports reported)."""
    try:
        interrupted = app.ask_json("library exports --json")
    except CheckError as error:
        return [f"interrupted exports: {error}"], 0
    folders = {e["directory"] for e in interrupted}
    problems = [f"export interrupted but not reported at start: {entry}"
                for entry in torn + temps if os.path.dirname(torn_path(entry)) not in folders]
    for export in interrupted:
        try:
            app.ask_json(f"library export --redo {export['id']} --json", timeout=180)
        except CheckError as error:
            problems.append(f"redo of interrupted export {export['id']}: {error}")
    if interrupted:
        _, torn_after, temps_after = stick_files(model, crcs)
        problems += [f"redo left a torn file: {t}" for t in torn_after
                     if os.path.dirname(torn_path(t)) in folders]
        problems += [f"redo left a temporary file: {t}" for t in temps_after if os.path.dirname(t) in folders]
        try:
            left = app.ask_json("library exports --json")
            problems += [f"export {e['id']} still interrupted after its redo" for e in left]
        except CheckError as error:
            problems.append(f"interrupted exports after the redo: {error}")
    return problems, len(interrupted)


# MARK: the series


def main():
    log(f"{CUTS} cuts, seed {SEED}, fresh file systems every {EPOCH} cuts, cut within {WINDOW} s of work")
    applog = open(f"{RESULTS}/powercut-appliance.log", "ab")
    records = open(f"{RESULTS}/powercut-cuts.jsonl", "w")
    counters = {"captured": set()}
    exercised = {}
    totals = {"acknowledged": 0, "lost": 0, "fsck_clean": 0, "checked": 0, "changes": 0, "problems": 0,
              "recordings": 0, "clips_adopted": 0, "clips_removed": 0, "clips_nameless": 0, "clips_quarantined": 0,
              "replays": 0, "torn_exports": 0, "export_temps": 0, "problem_cuts": 0, "reported_exports": 0}
    model = None
    pending = None  # (model, maybe ops, record) of the last cut, checked at the next start
    replays_before = 0
    seen_torn = set()
    seen_crcs = set()  # every photo's checksum seen in this epoch (an export may outlive a purge)
    series_start = time.monotonic()
    for index in range(CUTS + 1):
        final = index == CUTS
        if BUDGET and not final and time.monotonic() - series_start > BUDGET:
            log(f"time budget of {BUDGET:.0f} s spent: stopping after {index} of {CUTS} cuts")
            final = True
        if index == 0:
            fresh_file_systems()
            seen_crcs.clear()
            model = Model()
        started = time.monotonic()
        applog.write(f"\n==== start {index} ====\n".encode())
        applog.flush()
        log_from = applog.tell()
        app = Appliance(applog)
        stamp, line = app.ask("status --json", timeout=180)
        ready = stamp - started
        if line is None:
            stuck = app.where_stuck()
            app.kill()
            for entry in stuck:
                log(f"  start {index}: {entry}")
            raise SystemExit(f"powercut: the appliance did not start (see {RESULTS}/powercut-appliance.log)")
        if pending is not None:
            pmodel, maybe, record = pending
            record["log_from"] = log_from
            try:
                problems = check_after_cut(app, pmodel, maybe, record)
            except CheckError as error:
                problems = [f"check failed: {error}"]
            listing = []
            try:
                listing = app.ask_json("library list --limit 100000 --json") + \
                    app.ask_json("library list --deleted --limit 100000 --json")
            except CheckError:
                pass
            seen_crcs.update(a["checksum"] for a in listing)
            stick_problems, torn, temps = stick_files(pmodel, seen_crcs)
            new_torn = [t for t in torn if t not in seen_torn]
            seen_torn.update(torn)
            totals["torn_exports"] += len(new_torn)
            totals["export_temps"] = len(temps)
            problems += stick_problems
            record["torn_unacknowledged_exports"] = new_torn
            # An export the cut interrupted must be reported at this start (never silently
            # incomplete), and its redo must leave every file of it whole.
            redo_problems, reported = check_interrupted_exports(app, pmodel, seen_crcs, torn, temps)
            problems += redo_problems
            totals["reported_exports"] += reported
            record["interrupted_exports_reported"] = reported
            record["problems"] = problems
            record["check_seconds"] = round(time.monotonic() - started, 2)
            record["start_seconds"] = round(ready, 2)
            totals["checked"] += 1
            totals["fsck_clean"] += 1 if record.get("fsck_clean") else 0
            totals["lost"] += len(set(record["lost"]))
            totals["problems"] += len(problems)
            totals["problem_cuts"] += 1 if problems else 0
            totals["clips_adopted"] += record.get("clips_adopted", 0)
            totals["clips_removed"] += record.get("clips_removed", 0)
            totals["clips_nameless"] += record.get("clips_nameless", 0)
            totals["clips_quarantined"] += record.get("clips_quarantined", 0)
            records.write(json.dumps(record) + "\n")
            records.flush()
            verdict = "ok" if not problems else "PROBLEMS"
            report_check("ok" if not problems else "FAIL", f"cut {record['cut']}",
                         f"{record['acknowledged']} acknowledged, {len(set(record['lost']))} lost"
                         + ("" if not problems else f", {len(problems)} problems: {problems[0]}"))
            log(f"cut {record['cut']}: {verdict}: {record['acknowledged']} photos acknowledged, "
                f"{len(set(record['lost']))} lost, fsck {'clean' if record.get('fsck_clean') else 'NOT clean'}, "
                f"cut {record['cut_after']:.2f}s into {record['ops']} ops, started in {record['start_seconds']}s, "
                f"checked in {record['check_seconds']}s, remounted in {record['remount_seconds']}s")
            for problem in problems:
                log(f"  cut {record['cut']}: {problem}")
        if final:
            app.ask("quit", timeout=20)
            app.kill()
            break
        if index > 0 and index % EPOCH == 0:
            app.ask("quit", timeout=20)
            app.kill()
            fresh_file_systems()
            seen_crcs.clear()
            seen_torn.clear()
            model = Model()
            counters["captured"] = set()
            app = Appliance(applog)
            if app.ask("status --json", timeout=180)[1] is None:
                app.kill()
                raise SystemExit("powercut: the appliance did not start on a fresh library")
        # Work, then the cut at a random instant.
        cut_event = threading.Event()
        worker = Worker(app, model, cut_event, counters, index)
        work_start = time.monotonic()
        if index < len(TARGETED):
            # A targeted cut: one kind of change, cut as soon as its answer is read.
            worker.script = TARGETED[index]
            worker.thread.start()
            worker.thread.join(timeout=300)
        else:
            delay = rng.uniform(0.2, WINDOW)
            worker.thread.start()
            while time.monotonic() - work_start < delay and worker.thread.is_alive():
                time.sleep(0.01)
        # Stop sending first; a request sent while the tables switch may still land, so
        # every request sent before the switch ended counts as in flight.
        cut_event.set()
        t_cut = time.monotonic()
        switch_tables(cut=True)
        t_switched = time.monotonic()
        app.kill()
        if worker.child is not None and worker.child.poll() is None:
            worker.child.kill()
        worker.thread.join(timeout=120)
        # Acknowledgements read before the cut began move the model; the rest may or may not have landed.
        record = {"cut": index, "cut_after": t_cut - work_start, "targeted": index < len(TARGETED), "ops": len(worker.ops), "lost": [],
                  "script": TARGETED[index] if index < len(TARGETED) else None,
                  "acknowledged": 0, "acks": []}
        maybe = []
        new_photos = set()
        for op in worker.ops:
            exercised[op.kind] = exercised.get(op.kind, 0) + 1
            if op.ack is not None and op.ack < t_cut and op.answer is not None and op.kind != "error":
                before = set(model.photos)
                op.apply(model)
                new_photos |= set(model.photos) - before
                totals["changes"] += 1
                record["acks"].append([op.kind, round(op.ack - t_cut, 3), (op.answer or "")[:120]])
            elif op.sent < t_switched:
                maybe.append(op)
        for stamp, line in app.events:
            if stamp < t_cut:
                m = re.match(r"event saved (\S+)", line)
                if m and m.group(1) not in model.photos:
                    model.photos[m.group(1)] = "active"
                    new_photos.add(m.group(1))
                    exercised["press"] = exercised.get("press", 0) + 1
                    record["acks"].append(["event saved", round(stamp - t_cut, 3), line[:120]])
        for stamp, line in app.transcript:
            m = re.match(r"(?:ok|event) saved (\S+)", line)
            if m:
                counters["captured"].add(m.group(1))
            m = re.match(r"ok saved \d+ photos: ([^;]*)", line)
            if m:
                counters["captured"].update(m.group(1).split())
        record["acknowledged"] = len(new_photos)
        record["maybe"] = [op.kind for op in maybe]
        record["recordings"] = []
        for op in worker.ops:
            number = getattr(op, "recording", None)
            if number is None or op.ack is None or op.ack >= t_cut:
                continue
            frames = max([f for stamp, f in op.frames if stamp < t_cut], default=0)
            saved = [line.split()[4] for stamp, line in app.events
                     if stamp < t_cut and line.startswith(f"event recording saved {number} ")]
            record["recordings"].append({"id": number, "frames": frames, "saved": saved[0] if saved else None})
        totals["recordings"] += sum(1 for r in record["recordings"] if not r["saved"])
        totals["acknowledged"] += len(new_photos)
        remount_started = time.monotonic()
        unmount_all()
        switch_tables(cut=False)
        mount_all()
        record["remount_seconds"] = round(time.monotonic() - remount_started, 2)
        # What the cut left of recordings, before the appliance starts and recovers them.
        record["recording_files_at_remount"] = sorted(
            os.path.relpath(os.path.join(d, f), LIB) for d, _, files in os.walk(LIB) for f in files
            if f.endswith(".recording") and "/quarantine" not in d)
        replays = replays_so_far()
        record["journal_replayed"] = replays > replays_before
        totals["replays"] += 1 if replays > replays_before else 0
        replays_before = replays
        pending = (model, maybe, record)
    ops = ", ".join(f"{count} {kind}" for kind, count in sorted(exercised.items()))
    summary = (f"powercut: {totals['checked']} cuts, {totals['acknowledged']} acknowledged, {totals['lost']} lost, "
               f"fsck clean {totals['fsck_clean']}/{totals['checked']} "
               f"(exercised: {ops}; {totals['changes']} acknowledged answers checked, {totals['problems']} problems "
               f"in {totals['problem_cuts']} cuts; journal replayed after {totals['replays']} cuts; on the vfat stick "
               f"{totals['torn_exports']} torn files of unacknowledged exports, {totals['export_temps']} temporary files; "
               f"{totals['reported_exports']} interrupted exports reported at start and redone; "
               f"{totals['recordings']} recordings cut, {totals['clips_adopted']} clips adopted, "
               f"{totals['clips_removed']} removed holding no whole frame, {totals['clips_nameless']} left no file "
               f"(cut before their first fragment made the name durable), {totals['clips_quarantined']} quarantined)")
    print(summary, flush=True)
    with open(f"{RESULTS}/powercut-summary", "w") as f:
        f.write(summary + "\n")
    return 0 if totals["problems"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
