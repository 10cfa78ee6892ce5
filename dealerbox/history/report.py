"""The audit as a manager reads it: one self-contained HTML page (charts as inline SVG drawn by pygal, no
script, nothing fetched from the net) and CSV files for their own tools."""

from __future__ import annotations

import csv
import html
import re
from pathlib import Path

from collections import Counter

from .audit import RULED, Room

CSV_FILES = ("hands.csv", "findings.csv", "logs.csv", "summary.csv")
# pygal always embeds its tooltip config as an inline script; the page is static, so it goes.
_SCRIPT = re.compile(r"<script\b.*?</script>", re.S)


MAX_LABELS = 24   # x labels a 900-pixel chart shows before they overlap; longer axes label every n-th


def label_every(n: int) -> int:
    """Show every this-many-th of ``n`` x labels, so at most MAX_LABELS are drawn."""
    return max(1, -(-n // MAX_LABELS))


def _chart(kind: str, title: str, labels: list[str], series: dict[str, list[float]], height: int = 320) -> str:
    import pygal
    from pygal.style import CleanStyle
    every = label_every(len(labels)) if kind != "HorizontalBar" else 1
    chart = getattr(pygal, kind)(js=[], disable_xml_declaration=True, height=height, width=900, title=title,
                                 style=CleanStyle, show_legend=len(series) > 1, x_label_rotation=30,
                                 print_values=False, truncate_label=40, x_labels_major_every=every,
                                 show_minor_x_labels=every == 1)
    chart.x_labels = labels
    for name, values in series.items():
        chart.add(name, values)
    return _SCRIPT.sub("", chart.render(is_unicode=True))


def _table(head: list[str], rows: list[list[object]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def html_page(room: Room, title: str = "dealerbox audit") -> str:
    esc = html.escape
    hours = sorted(room.hands_by_hour)
    # the chart shows rulings (dealer and floor): the info notes (showdown order, cards speak) outnumber them
    # many times over and would hide them; the table below lists every rule, notes included
    ruled = Counter({r: n for r, n in room.by_rule.items() if room.severity.get(r) in RULED})
    rules = [r for r, _ in ruled.most_common(25)]
    parts = [f"<h1>{esc(title)}</h1>",
             f"<p class=lead>{len(room.logs)} logs, {room.hands} hands; misdeals {room.misdeals} "
             f"({room.rate(room.misdeals):.1%}), voided {room.voids} ({room.rate(room.voids):.1%}), "
             f"hands with a ruling {room.ruled_hands} ({room.rate(room.ruled_hands):.1%}); "
             f"floor findings {room.by_severity.get('floor', 0)}.</p>"]
    if room.damaged:
        parts.append("<h2 class=bad>Damaged logs (the rest of the room is audited)</h2>")
        parts.append(_table(["log", "status", "first bad line", "verify"],
                            [[x.path, x.status, x.first_bad or x.error, x.verdict] for x in room.damaged]))
    if hours:
        parts.append(_chart("Bar", "Hands per hour (UTC)", hours, {"hands": [room.hands_by_hour[h] for h in hours]}))
        # only rulings: the info notes (showdown order, cards speak) outnumber them ten to one and would hide them
        parts.append(_chart("StackedBar", "Rulings per hour (UTC): floor and dealer findings", hours,
                            {sev: [room.by_hour_severity[h, sev] for h in hours] for sev in ("floor", "dealer")}))
    if rules:
        parts.append(_chart("HorizontalBar", "Rulings per rule (top 25; floor and dealer findings)", rules[::-1],
                            {sev: [room.by_rule_severity[r, sev] for r in rules[::-1]] for sev in ("floor", "dealer")},
                            height=max(320, 22 * len(rules))))
    tables = sorted(room.by_table)
    if tables:
        parts.append(_chart("Bar", "Findings per table", tables, {"findings": [room.by_table[t] for t in tables]}))
    parts.append("<h2>Findings per rule</h2>")
    parts.append(_table(["rule", "severity", "citation", "findings", "per 100 hands"],
                        [[r, room.severity.get(r, ""), room.citation.get(r, ""), n, f"{100 * room.rate(n):.1f}"]
                         for r, n in by_weight(room)]))
    if room.by_dealer:
        parts.append("<h2>Findings per dealer</h2>")
        parts.append(_table(["dealer", "findings"], [[d, n] for d, n in room.by_dealer.most_common()]))
    else:
        parts.append("<p>No log names its dealer (no dealer sign-in recorded): nothing to count per dealer.</p>")
    parts.append("<h2>Floor findings, each with its hand</h2>")
    parts.append(_table(["when", "table", "hand", "log", "rule", "outcome", "ruling"],
                        [[row.at, row.table, row.hand, row.log, f.rule, f.outcome, f.ruling] if row else
                         [f"t={f.t:.1f} s", log.table, "(between hands)", log.path, f.rule, f.outcome, f.ruling]
                         for row, log, f in room.floor]))
    parts.append("<h2>Logs</h2>")
    parts.append(_table(["log", "table", "hands", "status", "verify"],
                        [[x.path, x.table, len(x.hands), x.status, x.verdict] for x in room.logs]))
    style = ("body{font-family:sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:3px 8px;font-size:90%;text-align:left}.bad{color:#b00}"
             ".lead{font-size:120%}svg{display:block;margin:1em 0}")
    return (f"<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>{esc(title)}</title>"
            f"<style>{style}</style></head><body>\n" + "\n".join(parts) + "\n</body></html>\n")


_WEIGHT = {"floor": 0, "dealer": 1, "info": 2}


def by_weight(room: Room) -> list[tuple[str, int]]:
    """Every rule with its count: floor rulings first, then dealer rulings, then notes; most frequent first."""
    return sorted(room.by_rule.items(), key=lambda rn: (_WEIGHT.get(room.severity.get(rn[0], ""), 3), -rn[1], rn[0]))


def write_csv(room: Room, folder: Path) -> list[Path]:
    """hands.csv (a row a hand), findings.csv (a row a finding), logs.csv (a row a log), summary.csv."""
    folder.mkdir(parents=True, exist_ok=True)
    out = [folder / name for name in CSV_FILES]
    with open(out[0], "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["log", "table", "dealer", "hand", "started_utc", "hour", "outcome", "findings", "rulings",
                    "game", "practice"])
        for log in room.logs:
            for r in log.hands:
                w.writerow([r.log, r.table, r.dealer, r.hand, r.at, r.hour, r.outcome, len(r.findings),
                            sum(x.severity in ("dealer", "floor") for x in r.findings), r.game, r.practice])
    with open(out[1], "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["log", "table", "dealer", "hand", "started_utc", "hour", "id", "rule", "citation", "severity",
                    "outcome", "seats", "ruling"])
        for log in room.logs:
            for r in log.hands:
                for x in r.findings:
                    w.writerow([r.log, r.table, r.dealer, r.hand, r.at, r.hour, x.id, x.rule, x.citation,
                                x.severity, x.outcome, " ".join(map(str, x.seats)), x.ruling])
            for x in log.stray:
                w.writerow([log.path, log.table, "", "", "", "", x.id, x.rule, x.citation, x.severity, x.outcome,
                            " ".join(map(str, x.seats)), x.ruling])
    with open(out[2], "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["log", "table", "hands", "status", "first_bad_line", "verify"])
        for log in room.logs:
            w.writerow([log.path, log.table, len(log.hands), log.status, log.first_bad or log.error, log.verdict])
    with open(out[3], "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["measure", "key", "value"])
        w.writerow(["hands", "", room.hands])
        w.writerow(["misdeal_rate", "", f"{room.rate(room.misdeals):.4f}"])
        w.writerow(["void_rate", "", f"{room.rate(room.voids):.4f}"])
        w.writerow(["ruling_rate", "", f"{room.rate(room.ruled_hands):.4f}"])
        for name, counter in (("findings_per_rule", room.by_rule), ("findings_per_table", room.by_table),
                              ("findings_per_dealer", room.by_dealer), ("findings_per_hour", room.by_hour),
                              ("hands_per_hour", room.hands_by_hour), ("findings_per_severity", room.by_severity)):
            for key in sorted(counter):
                w.writerow([name, key, counter[key]])
    return out
