#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Host smoke test of the real tlvd and tlvctl binaries.

The kernel side is replaced by an LD_PRELOAD stand-in for libipeh's
netlink client (test-tlvd-fakenl.c) whose table is a file, shared by tlvd
and tlvctl.  Checks: start + READY=1 + STATUS=, the table as the shipped
policy says, SIGHUP with a broken file (policy kept, file:line in STATUS,
still running), drift made with tlvctl corrected within the interval,
RSS, clean SIGTERM, on-stop = restore, missing family, no CAP_NET_ADMIN,
and tlvctl's commands and exit codes.

usage: test-tlvd-smoke.py TLVD TLVCTL PRELOAD SHIPPED_CONF [--no-rss]
Exit 77 (skipped) when not root.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

TLVD, TLVCTL, PRELOAD, SHIPPED = sys.argv[1:5]
CHECK_RSS = "--no-rss" not in sys.argv

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def env(tmp, **extra):
    e = dict(os.environ)
    e["LD_PRELOAD"] = PRELOAD
    e["TLVD_FAKE_TABLE"] = os.path.join(tmp, "table")
    # a sanitizer runtime must come first otherwise
    e["ASAN_OPTIONS"] = e.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0:detect_leaks=0"
    e.pop("JOURNAL_STREAM", None)
    e.update(extra)
    return e


def tlvctl(tmp, *args, **extra):
    return subprocess.run([TLVCTL, *args], env=env(tmp, **extra),
                          capture_output=True, text=True, timeout=30)


def show(tmp, typ):
    r = tlvctl(tmp, "--json", "show", typ)
    return json.loads(r.stdout)


class Notify:
    """A NOTIFY_SOCKET that collects sd_notify() messages."""

    def __init__(self, tmp):
        self.path = os.path.join(tmp, "notify")
        if os.path.exists(self.path):
            os.unlink(self.path)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.msgs = []

    def wait_for(self, pred, timeout=15):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for m in self.msgs:
                if pred(m):
                    self.msgs.remove(m)
                    return m
            self.sock.settimeout(max(0.01, end - time.monotonic()))
            try:
                self.msgs.append(self.sock.recv(4096).decode())
            except socket.timeout:
                break
        return None


def wait_until(pred, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.1)
    return pred()


def start(tmp, conf, *args, **extra):
    n = Notify(tmp)
    log = open(os.path.join(tmp, "tlvd.log"), "w+")
    p = subprocess.Popen([TLVD, "-c", conf, *args], stdout=log, stderr=log,
                         env=env(tmp, NOTIFY_SOCKET=n.path, **extra))
    return p, n, log


def read_log(log):
    log.flush()
    log.seek(0)
    return log.read()


def main():
    if os.geteuid() != 0:
        print("not root: tlvd needs CAP_NET_ADMIN; skipped")
        return 77
    tmp = tempfile.mkdtemp(prefix="tlvd-smoke.")
    try:
        conf = os.path.join(tmp, "tlvd.conf")
        shutil.copy(SHIPPED, conf)

        # --- start --------------------------------------------------
        p, n, log = start(tmp, conf, "--interval", "1")
        ready = n.wait_for(lambda m: "READY=1" in m)
        check(ready is not None, "tlvd sends READY=1")
        check(ready is not None and "STATUS=" in ready and "2 types (pmtu ioam)" in ready,
              "STATUS names the applied types: %r" % ready)
        ioam, pmtu = show(tmp, "ioam"), show(tmp, "pmtu")
        check(ioam["user"] == "check" and ioam["align"] == "4n+0"
              and ioam["min_length"] == 10 and ioam["max_length"] == 254
              and ioam["length_mult"] == "4n+2",
              "IOAM as the shipped policy says: %r" % ioam)
        check(pmtu["entry"] and pmtu["user"] == "check" and pmtu["align"] == "4n+2"
              and pmtu["min_length"] == 4 and pmtu["max_length"] == 4,
              "PMTU as the shipped policy says: %r" % pmtu)
        check(show(tmp, "ra")["user"] == "none", "Router Alert untouched")
        text = read_log(log)
        check("set ioam (0x31): user none -> check" in text,
              "one log line per change")

        # --- RSS ----------------------------------------------------
        if CHECK_RSS:
            with open("/proc/%d/status" % p.pid) as f:
                rss = [int(l.split()[1]) for l in f if l.startswith("VmRSS:")][0]
            check(rss < 5 * 1024, "RSS %d kB < 5 MB" % rss)

        # --- reload with a broken file ------------------------------
        with open(conf, "a") as f:
            f.write("[option pmtu]\nuser = all\n")
        p.send_signal(signal.SIGHUP)
        check(n.wait_for(lambda m: "RELOADING=1" in m) is not None,
              "SIGHUP sends RELOADING=1")
        st = n.wait_for(lambda m: "READY=1" in m)
        lines = open(SHIPPED).read().splitlines()
        want = "%s:%d: option pmtu already has a section at line %d" % (
            conf, len(lines) + 1, lines.index("[option pmtu]") + 1)
        check(st is not None and want in st, "STATUS shows the file:line error: %r" % st)
        check(p.poll() is None, "tlvd still runs after a broken reload")
        check(show(tmp, "pmtu")["user"] == "check", "policy kept after a broken reload")
        check(want in read_log(log), "the error is logged")

        # --- drift ---------------------------------------------------
        shutil.copy(SHIPPED, conf)
        r = tlvctl(tmp, "set", "ioam", "user", "none")
        check(r.returncode == 0, "tlvctl set ioam user none: %s" % r.stderr.strip())
        check(wait_until(lambda: show(tmp, "ioam")["user"] == "check", 5),
              "drift reverted within the interval")
        check("drift: 1 type differs from the policy (ioam), re-asserting" in read_log(log), "drift logged")

        # --- stop (keep) -------------------------------------------
        p.send_signal(signal.SIGTERM)
        try:
            rc = p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = None
        check(rc == 0, "SIGTERM: clean exit (rc %r)" % rc)
        check(n.wait_for(lambda m: "STOPPING=1" in m) is not None, "STOPPING=1 sent")
        check(show(tmp, "ioam")["user"] == "check", "on-stop = keep leaves the policy")

        # --- on-stop = restore -------------------------------------
        with open(conf, "w") as f:
            f.write(open(SHIPPED).read().replace("on-stop = keep", "on-stop = restore"))
        p, n, log = start(tmp, conf)
        check(n.wait_for(lambda m: "READY=1" in m) is not None, "restart ready")
        p.send_signal(signal.SIGINT)
        rc = p.wait(10)
        check(rc == 0, "SIGINT: clean exit")
        check(show(tmp, "ioam")["user"] == "none" and not show(tmp, "pmtu")["entry"],
              "on-stop = restore puts the kernel defaults back")

        # --- a failing apply at start ---------------------------------
        p, n, log = start(tmp, conf, TLVD_FAKE_FAIL_TYPE="0x31")
        rc = p.wait(10)
        check(rc == 1, "failed first apply: exit 1")
        check(not show(tmp, "pmtu")["entry"], "failed first apply rolled back")
        check("rollback done" in read_log(log), "rollback logged")

        # --- no family, no capability, bad file ----------------------
        r = subprocess.run([TLVD, "-c", conf], env=env(tmp, TLVD_FAKE_NO_FAMILY="1"),
                           capture_output=True, text=True, timeout=10)
        check(r.returncode == 1 and
              "kernel has no ipv6-tlv netlink family (ipeh patches not applied?)" in r.stderr,
              "missing family: clear error, exit 1: %r" % r.stderr)
        if shutil.which("setpriv"):
            r = subprocess.run(["setpriv", "--bounding-set=-net_admin", "--inh-caps=-net_admin",
                                TLVD, "-c", conf], env=env(tmp),
                               capture_output=True, text=True, timeout=10)
            check(r.returncode == 1 and "needs CAP_NET_ADMIN" in r.stderr,
                  "no CAP_NET_ADMIN: clear error, exit 1: %r" % r.stderr)
        bad = os.path.join(tmp, "bad.conf")
        with open(bad, "w") as f:
            f.write("[global]\ninterval = soon\n")
        r = subprocess.run([TLVD, "--check", bad], capture_output=True, text=True)
        check(r.returncode == 1 and r.stderr.strip() ==
              "%s:2: invalid interval 'soon': expected seconds from 0 to 86400" % bad,
              "tlvd --check: file:line error, exit 1")
        r = subprocess.run([TLVD, "--check", SHIPPED], capture_output=True, text=True)
        check(r.returncode == 0, "tlvd --check shipped policy: exit 0")

        # --- tlvctl ------------------------------------------------
        r = tlvctl(tmp, "diff", SHIPPED)
        check(r.returncode == 1 and "set ioam (0x31): user none -> check" in r.stdout,
              "tlvctl diff: changes listed, exit 1")
        r = tlvctl(tmp, "--json", "diff", SHIPPED)
        check([c["name"] for c in json.loads(r.stdout)] == ["pmtu", "ioam"], "tlvctl --json diff")
        r = tlvctl(tmp, "apply", SHIPPED)
        check(r.returncode == 0 and "2 changes" in r.stdout, "tlvctl apply")
        r = tlvctl(tmp, "diff", SHIPPED)
        check(r.returncode == 0 and r.stdout == "", "tlvctl diff after apply: nothing, exit 0")
        r = tlvctl(tmp, "show")
        check(r.returncode == 0 and "pmtu (0x30)" in r.stdout, "tlvctl show")
        check(len(json.loads(tlvctl(tmp, "show", "--all", "--json").stdout)) == 254,
              "tlvctl show --all --json lists 254 types")
        r = tlvctl(tmp, "set", "0x99", "class", "dst")
        check(r.returncode == 2 and "'order' is required" in r.stderr, "set without order refused")
        r = tlvctl(tmp, "set", "153", "order", "7", "class", "dst,hop", "user", "check")
        check(r.returncode == 0 and show(tmp, "0x99")["class"] == ["hop", "dst"],
              "tlvctl set by number")
        r = tlvctl(tmp, "set", "0x99", "order", "50")
        check(r.returncode == 1 and "already used" in r.stderr, "order clash refused by the kernel")
        r = tlvctl(tmp, "unset", "0x99")
        check(r.returncode == 0 and not show(tmp, "0x99")["entry"], "tlvctl unset")
        r = tlvctl(tmp, "check", bad, "--json")
        check(r.returncode == 1 and json.loads(r.stdout)["line"] == 2, "tlvctl check --json error")
        r = tlvctl(tmp, "frobnicate")
        check(r.returncode == 2, "unknown command: exit 2")
        r = tlvctl(tmp, "show", "--help")
        check(r.returncode == 0 and "Usage: tlvctl show" in r.stdout, "per-command help")
        r = tlvctl(tmp, "show", TLVD_FAKE_NO_FAMILY="1")
        check(r.returncode == 1 and "ipeh patches not applied?" in r.stderr,
              "tlvctl: missing family")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


sys.exit(main())
