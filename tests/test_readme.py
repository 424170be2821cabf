"""The README stays a two-minute read, and the code the docs show runs as written.

The API example lives in docs/api.md (and any Python block the README has runs too); the README
is at most 150 lines, opens with what Gate Lab is and a picture, and its links lead somewhere.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def test_python_examples_in_the_readme_and_api_docs_run():
    for doc in (README, ROOT / "docs" / "api.md"):
        blocks = re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), flags=re.S)
        if doc.name == "api.md":
            assert blocks, "docs/api.md should show a runnable example"
        for code in blocks:
            exec(compile(code, str(doc.relative_to(ROOT)), "exec"), {})


def test_the_readme_is_short_and_opens_with_what_it_is_and_a_picture():
    lines = README.read_text(encoding="utf-8").split("\n")
    assert len(lines) <= 150, f"README.md has {len(lines)} lines; a newcomer reads at most 150"
    first_image = next(i for i, line in enumerate(lines) if line.lstrip().startswith("!["))
    assert first_image < 25, f"the first picture is at line {first_image + 1}"
    assert "Gate Lab" in lines[0] and "recurrent" in " ".join(lines[:10])


def test_every_local_link_in_the_readme_and_docs_leads_somewhere():
    broken = []
    for doc in [README, *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", doc.read_text(encoding="utf-8")):
            if not re.match(r"[a-z]+://|mailto:", target) and not (doc.parent / target).exists():
                broken.append(f"{doc.relative_to(ROOT)} -> {target}")
    assert not broken, broken
