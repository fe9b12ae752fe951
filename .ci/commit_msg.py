"""The commit-msg hook (.pre-commit-config.yaml): a commit's subject stays under 72
characters and a blank line parts it from the body.

`git log --oneline`, `git shortlog`, GitHub's commit lists and mail subjects cut a longer
subject, and git takes every line before the first blank one as the subject. Git's comment
lines (`#`) and everything below the scissors line of `git commit -v` are left out, as git
leaves them out of the message. Usage: commit_msg.py MESSAGE-FILE (what git passes).
"""

from __future__ import annotations

import sys
from pathlib import Path

MAX_SUBJECT = 71
"""The longest subject allowed: 72 characters or more is refused."""
SCISSORS = "# ------------------------ >8 ------------------------"


def problems(message: str) -> list[str]:
    """What is wrong with `message` (a commit message as git hands it to the hook)."""
    lines = []
    for line in message.splitlines():
        if line.startswith(SCISSORS):
            break
        if not line.startswith("#"):
            lines.append(line.rstrip())
    while lines and not lines[0]:
        lines.pop(0)
    if not lines:
        return []  # git refuses an empty message itself
    found = []
    subject = lines[0]
    if len(subject) > MAX_SUBJECT:
        found.append(
            f"the subject is {len(subject)} characters; keep it under 72 "
            f"(at most {MAX_SUBJECT}) and say the rest in the body"
        )
    if len(lines) > 1 and lines[1]:
        found.append("a blank line must part the subject from the body")
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: commit_msg.py MESSAGE-FILE", file=sys.stderr)
        return 2
    found = problems(Path(argv[0]).read_text(encoding="utf-8"))
    for problem in found:
        print(f"commit message: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
