#!/usr/bin/env python3
"""Writes games.pgn (UTF-8, LF) and games-gbk.pgn (GBK, CRLF) from the XQF files here, read
by another reader: the `cchess` package (pip install cchess==1.25.5), whose Chinese notation
(full-width digits for Black) is written as it gives it. Each game gets a comment before its
first move, the file's comments, a variation after Red's second move and a line of text after
the result, so the PGN tests cover what XiangQi Wizard's files hold.
Run from this folder: python3 make-pgn.py"""
import glob
from cchess.read_xqf import read_from_xqf


def clean(text):
    return (text or "").replace("\r\n", "\n").replace("\r", "\n").strip()


START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
out = []
for n, path in enumerate(sorted(glob.glob("*.xqf")), 1):
    g = read_from_xqf(path)
    tags = [("Game", "Chinese Chess"), ("Event", g.info.get("event", "")),
            ("Red", g.info.get("red", "")), ("Black", g.info.get("black", "")),
            ("Result", g.info["result"])]
    fen = g.init_board.to_fen()
    if fen != START:
        tags.append(("FEN", fen + " - - 0 1"))
    tags.append(("Format", "Chinese"))
    lines = ['[%s "%s"]' % t for t in tags]
    intro = "第%d局 %s" % (n, path)
    if clean(g.annote):
        intro += "\n" + clean(g.annote)
    lines.append("{%s}" % intro)
    moves, m = [], g.first_move
    while m is not None:
        moves.append((m.to_text(), clean(m.annote)))
        m = m.next_move
    black_first = fen.endswith(" b")
    body = []
    for i, (text, note) in enumerate(moves):
        ply = i + (1 if black_first else 0)
        if ply % 2 == 0:
            body.append("%d." % (ply // 2 + 1))
        elif i == 0:
            body.append("1...")
        body.append(text)
        if note:
            assert "{" not in note and "}" not in note, path
            body.append("{%s}" % note)
        if ply == 2:
            body.append("(2. 车九进一 {另一种走法} 马２进３ (2... 车９进１))")
    lines.append(" ".join(body))
    lines.append(g.info["result"])
    lines.append("本局棋谱由象棋演播室转换，欢迎访问。 1. 炮二平五 马８进７")
    lines.append("")
    out.append("\n".join(lines))
text = "\n".join(out)
open("games.pgn", "w", encoding="utf-8", newline="\n").write(text)
open("games-gbk.pgn", "w", encoding="gbk", newline="\r\n").write(text)
