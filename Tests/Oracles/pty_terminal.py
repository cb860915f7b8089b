"""A terminal played by a script, for the REPL's pictures: runs `fontshell FONT` on a
pseudo-terminal, answers the graphics query as kitty, an xterm with sixel, or not at all, types
show(...), then `print(6 * 7)` to prove no reply was left on the input line, and prints what it
saw as JSON.

  pty_terminal.py FONTSHELL FONT MODE      MODE: kitty | sixel | silent | iterm (by TERM_PROGRAM)
                                           | late (sixel's answer 0.8 s after the query, at the prompt,
                                           as over a slow ssh link)
  pty_terminal.py FONTSHELL FONT complete  types face['OS/2'].usWe<Tab> and face:glyphF<Tab>('A').name
                                           and reports what the completed lines printed
  pty_terminal.py FONTSHELL FONT utf8      types print(('é'):byte(1, -1)) and reports whether Lua got 195 169
  pty_terminal.py FONTSHELL FONT pick      registry.pick(): types "djvsm" and Enter, then Esc in a
                                           second picker, and reports what each returned
"""
import json
import os
import pty
import select
import sys
import time

binary, font, mode = sys.argv[1:4]
env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "TERM_PROGRAM", "KITTY_WINDOW_ID", "KONSOLE_VERSION", "WT_SESSION", "FONTSHELL_IMAGES", "COLORTERM")}
env["TERM"] = "xterm-256color"
env["HOME"] = os.environ.get("TMPDIR", "/tmp")   # no history file of the user's
if mode == "iterm":
    env["TERM_PROGRAM"] = "iTerm.app"

pid, fd = pty.fork()
if pid == 0:
    os.execve(binary, [binary, font], env)

out = b""
query_at = None


def read_until(marker, timeout=20.0):
    """Reads until `marker` appears in what arrives from now on."""
    global out, query_at
    since = len(out)
    deadline = time.time() + timeout
    while time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            if query_at is None and b"\x1b_Gi=31" in out and b"\x1b[c" in out:
                query_at = time.time()
                if mode == "kitty":
                    os.write(fd, b"\x1b_Gi=31;OK\x1b\\\x1b[?62;22c")
                elif mode == "sixel":
                    os.write(fd, b"\x1b[?63;1;2;4;6;9;15;22c")
        if marker in out[since:]:
            return True
    return False


def finish():
    """Ctrl-D at the prompt (again every 2 s: one typed while a line was still being read is
    taken as end of that line); after 10 s the REPL is killed. True when it left by itself."""
    for attempt in range(5):
        read_until(b"> ", timeout=2)
        os.write(fd, b"\x04")
        for _ in range(40):
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                return True
            time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    return False


read_until(b"> ")
if mode == "complete":
    os.write(fd, b"face['OS/2'].usWe\t")
    time.sleep(0.3)
    os.write(fd, b"\r")
    read_until(b"400\r\n", timeout=10)
    read_until(b"> ", timeout=2)
    os.write(fd, b"face:glyphF\t")
    time.sleep(0.3)
    os.write(fd, b"('A').name\r")
    read_until(b"\r\nA\r\n", timeout=10)
    finish()
    text = out.decode("utf-8", "replace")
    print(json.dumps({"weightClass": "\r\n400\r\n" in text, "glyphFor": "\r\nA\r\n" in text}))
    sys.exit(0)
if mode == "utf8":
    # Non-ASCII typed at the prompt reaches Lua as its UTF-8 bytes (the key reader decodes
    # them). The REPL is then killed: after a non-ASCII line, libedit sometimes ignores Ctrl-D
    # under load, with or without our key reader (not understood yet).
    os.write(fd, "print(('é'):byte(1, -1))\r".encode())
    utf8 = read_until(b"195\t169", timeout=10)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    print(json.dumps({"utf8": utf8}))
    sys.exit(0)
if mode == "pick":
    os.write(fd, b"f = registry.pick()\r")
    shown = read_until(b"pick a font:", timeout=10)
    time.sleep(0.5)                       # the terminal query's deadline, then the first screen
    for ch in b"djvsm":
        os.write(fd, bytes([ch]))
        time.sleep(0.1)
    os.write(fd, b"\r")
    read_until(b"> ", timeout=10)
    os.write(fd, b"print(f.familyName)\r")
    chose = read_until(b"DejaVu Sans Mono\r\n", timeout=10)
    os.write(fd, b"g = registry.pick('dejavu')\r")
    read_until(b"pick a font:", timeout=10)
    time.sleep(0.3)
    os.write(fd, b"\x1b")
    read_until(b"> ", timeout=10)
    os.write(fd, b"print(g == nil)\r")
    cancelled = read_until(b"true\r\n", timeout=10)
    finish()
    print(json.dumps({"shown": shown, "chose": chose, "cancelled": cancelled, "restored": b"\x1b[?1049l" in out}))
    sys.exit(0)
start = len(out)
os.write(fd, b"show(face.glyphs.A, {width = 24})\r")
typed_at = time.time()
read_until(b"\n> ")
shown_at = time.time()
picture = out[start:]
if mode == "late":
    # The answer arrives long after the deadline, while the REPL waits at its prompt, and the
    # user types on: the reply must not end up in the line.
    time.sleep(max(0.0, query_at + 0.8 - time.time()) if query_at else 0.8)
    os.write(fd, b"\x1b[?63;1;2;4;6;9;15;22c")
    time.sleep(0.05)
os.write(fd, b"print(6 * 7)\r")
read_until(b"42")
read_until(b"> ", timeout=5)
after = out[len(out) - 200:]
exited = finish()
print(json.dumps({
    "queried": query_at is not None,
    "kitty": b"\x1b_Ga=T" in picture,
    "iterm": b"\x1b]1337;File=inline=1" in picture,
    "sixel": b"\x1bP0;1;0q" in picture,
    "blocks": "\u2580".encode() in picture,
    "seconds": round(shown_at - typed_at, 3),
    "answered42": b"42" in after,
    "exited": exited,
    "tail": out[-120:].decode("utf-8", "replace") if os.environ.get("PTY_DEBUG") else "",
}))
