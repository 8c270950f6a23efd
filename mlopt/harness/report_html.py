"""One self-contained HTML page per results directory (``mlopt bench report DIR --html OUT``).

The page is the Markdown report (:func:`mlopt.harness.report.report`, the one source of its
tables and text) rendered to HTML, with every figure embedded as a base64 PNG (``data:`` URLs:
no file beside the page, no network), and a section on the run itself: the hosts that ran its
tasks, the versions stored with its results and the machine and versions of the process that
wrote the page.  The renderer handles exactly the Markdown subset the report writes (headings,
pipe tables, list items, paragraphs, images, inline code and emphasis), so no Markdown
library is needed.
"""
from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path

from mlopt.fileio import write_text

_IMAGE = re.compile(r"^!\[([^\]]*)\]\(([^)]+)\)$")
_CSS = """
body { font-family: system-ui, sans-serif; max-width: 1150px; margin: 1.5em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
h1 { border-bottom: 2px solid #446; padding-bottom: .2em; }
h2 { margin-top: 1.6em; border-bottom: 1px solid #ccd; }
table { border-collapse: collapse; margin: .6em 0 1em; font-size: 13px; }
th, td { border: 1px solid #bbc; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #eef0f6; }
tr:nth-child(even) td { background: #f8f8fb; }
code { background: #f2f2f5; padding: 0 3px; border-radius: 3px; font-size: 92%; }
figure { margin: 1em 0; }
figure img { max-width: 100%; border: 1px solid #dde; }
figcaption { font-size: 13px; color: #555; }
nav.contents { font-size: 14px; margin: .8em 0; padding: .4em .6em; background: #f4f5f9;
               border-left: 3px solid #446; }
"""


def html_report(out_dir: str | Path) -> str:
    """The HTML page of a results directory (writes its ``report.md`` figures first)."""
    from mlopt.harness.report import FIGURES, report

    out = Path(out_dir)
    text = report(out, figures_dir=out / FIGURES)
    title = text.splitlines()[0].lstrip("# ").strip() if text else "Experiment report"
    body = _with_contents(render(text, base=out) + run_section(out))
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n")


def _with_contents(body: str) -> str:
    """Anchors on the level-2 headings and a contents line under the page's first paragraphs:
    the figures and the run's machine sit below long tables, and a reader should not have to
    scroll to find them."""
    seen: dict[str, int] = {}
    entries = []

    def anchor(m: re.Match) -> str:
        text = re.sub(r"<[^>]+>", "", m.group(1))
        slug = re.sub(r"[^a-z0-9]+", "-", html.unescape(text).lower()).strip("-") or "section"
        seen[slug] = seen.get(slug, 0) + 1
        slug += f"-{seen[slug]}" if seen[slug] > 1 else ""
        entries.append(f'<a href="#{slug}">{m.group(1)}</a>')
        return f'<h2 id="{slug}">{m.group(1)}</h2>'

    body = re.sub(r"<h2>(.*?)</h2>", anchor, body)
    if len(entries) < 2:
        return body
    nav = '<nav class="contents">Contents: ' + " · ".join(entries) + "</nav>"
    first = body.find("<h2 ")
    return body[:first] + nav + "\n" + body[first:]


def write_html(out_dir: str | Path, path: str | Path) -> Path:
    """Write :func:`html_report` of ``out_dir`` to ``path`` (atomically); return the path."""
    write_text(path, html_report(out_dir))
    return Path(path)


def run_section(out_dir: Path) -> str:
    """Where and with what the run's results were produced (from the stored rows)."""
    from mlopt.harness.report import _frame, _table

    df, _ = _frame(out_dir)
    if df.empty:
        return ""
    hosts: dict[str, int] = {}
    for t in df.timing.dropna():
        host = json.loads(t).get("host")
        if host:
            hosts[host] = hosts.get(host, 0) + 1
    versions = df.groupby(["mlopt_version", "python_version", "numpy_version"],
                          dropna=False).size()
    rows = [[f"`{h}`", str(n)] for h, n in sorted(hosts.items())]
    lines = ["## The run", "", "Hosts that ran its tasks (result rows each):", ""]
    lines += _table(["host", "rows"], rows) if rows else ["(not recorded)"]
    lines += ["", "Versions stored with the results:", ""]
    lines += _table(["mlopt", "Python", "numpy", "rows"],
                    [[str(a), str(b), str(c), str(n)] for (a, b, c), n in versions.items()])
    solvers = df[["solver", "solver_version"]].dropna().drop_duplicates()
    if not solvers.empty:
        lines += ["", "Solvers:", ""]
        lines += _table(["solver", "version"], [[s, v] for s, v in solvers.itertuples(
            index=False)])
    return render("\n".join(lines + [""]), base=out_dir)


def render(markdown: str, *, base: Path) -> str:
    """HTML of the report's Markdown subset; images are read from ``base`` and embedded."""
    out: list[str] = []
    para: list[str] = []
    items: list[str] = []
    lines = markdown.splitlines()

    def flush() -> None:
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()
        if items:
            out.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
            items.clear()

    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        heading = re.match(r"^(#{1,6}) (.*)$", line)
        image = _IMAGE.match(line)
        if not line:
            flush()
        elif heading:
            flush()
            n = len(heading.group(1))
            out.append(f"<h{n}>{_inline(heading.group(2))}</h{n}>")
        elif line.startswith("|"):
            flush()
            block = []
            while i < len(lines) and lines[i].startswith("|"):
                block.append(lines[i].rstrip())
                i += 1
            out.append(_html_table(block))
            continue
        elif image:
            flush()
            out.append(_figure(image.group(1), base / image.group(2)))
        elif line.startswith("- "):
            if para:
                flush()
            items.append(line[2:])
        else:
            if items:
                flush()
            para.append(line)
        i += 1
    flush()
    return "\n".join(out)


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split(" | ")]


def _html_table(block: list[str]) -> str:
    head, rows = _cells(block[0]), [_cells(r) for r in block[2:]]
    th = "".join(f"<th>{_inline(c)}</th>" for c in head)
    trs = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>"
                  for r in rows)
    return f"<table>\n<thead><tr>{th}</tr></thead>\n<tbody>{trs}</tbody>\n</table>"


def _figure(alt: str, path: Path) -> str:
    if not path.is_file():  # a figure the report links but nobody wrote: say so, never hide it
        return f"<p><em>figure {html.escape(alt)} missing ({html.escape(path.name)})</em></p>"
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return (f'<figure><img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{html.escape(alt)} &mdash; <code>{html.escape(path.name)}</code>"
            f"</figcaption></figure>")


def _inline(text: str) -> str:
    """Escape, then `code` and *emphasis* (inside code nothing else applies)."""
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for part in parts:
        if len(part) >= 2 and part.startswith("`") and part.endswith("`"):
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
        else:
            esc = html.escape(part)
            out.append(re.sub(r"\*([^*\s][^*]*)\*", r"<em>\1</em>", esc))
    return "".join(out)
