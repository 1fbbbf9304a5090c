"""The case base inside the GTP engine: the bonus reaches the search, labels reach mcgo-tree,
the GoGui commands answer, and a bad --casebase file is refused with its reason."""

import numpy as np
import pytest
from click.testing import CliRunner

import mcgo
from helpers import Session
from mcgo.casebase import CaseBase, OpeningAdvisor
from mcgo.cli import main
from mcgo.sgf import read_game

GAME = (b"(;SZ[19]KM[6.5];B[pd];W[dp];B[pq];W[dd];B[fq];W[cn];B[jp];W[qo];B[qn];W[pn];B[qm]"
        b";W[on];B[ql];W[fc];B[qf];W[jd];B[nc];W[cg];B[kq];W[ie])")


def session_after(moves, advisor, preset="thesis"):
    session = Session(size=19, komi=6.5, preset=preset, playouts=60, seed=3,
                      opening_advisor=advisor)
    for color, p in moves:
        session.send(f"play {'b' if color == mcgo.BLACK else 'w'} {mcgo.to_gtp(p, 19)}")
    return session


def test_bonus_and_labels_reach_the_tree():
    record = read_game(GAME)
    advisor = OpeningAdvisor(CaseBase.from_records([record]))
    gtp = session_after(record.moves[:6], advisor)
    pro = mcgo.to_gtp(record.moves[6][1], 19)       # J4
    gtp.send("reg_genmove b")
    tree = gtp.send("mcgo-tree 40")
    assert f"cbr[{pro}: 0.4 <bytes>]" in tree
    bonus = {line.split(":")[0]: line for line in tree.splitlines() if "cbr[" in line}
    assert all(f"cbr[{pro}: " in line for line in bonus.values())
    gfx = gtp.send("mcgo-casebase")
    assert gfx.startswith(f"LABEL {pro} cbr\nMARK {pro}\n") and "similarity 361/361" in gfx
    assert gtp.send("mcgo-influence").startswith("INFLUENCE ")
    assert "gfx/Case base match/mcgo-casebase" in gtp.send("gogui-analyze_commands")


def test_no_casebase_means_no_bonus():
    record = read_game(GAME)
    gtp = session_after(record.moves[:6], None)
    gtp.send("reg_genmove b")
    assert "cbr[" not in gtp.send("mcgo-tree 40")
    assert gtp.send("mcgo-casebase").startswith("TEXT no case base")


def test_gtp_refuses_a_bad_casebase_file(tmp_path):
    bad = tmp_path / "games.sgf"
    bad.write_bytes(GAME)
    result = CliRunner().invoke(main, ["gtp", "--casebase", str(bad)], input="quit\n")
    assert result.exit_code == 2
    assert "is not an mcgo case base" in result.output
    result = CliRunner().invoke(main, ["gtp", "--casebase", "none", "--quiet"],
                                input="mcgo-casebase\nquit\n")
    assert result.exit_code == 0 and "no case base" in result.output


def test_casebase_auto_follows_the_preset():
    """``--casebase auto`` (the default): the shipped case base with the thesis preset, where
    it answers the empty board's GoGui query with a professional's game; none with the
    strong preset."""
    from mcgo.casebase import open_casebase
    if open_casebase("default") is None:
        pytest.skip("no shipped case base")
    query = "boardsize 19\nclear_board\nmcgo-casebase\nquit\n"
    thesis = CliRunner().invoke(main, ["gtp", "--quiet", "--preset", "thesis"], input=query)
    strong = CliRunner().invoke(main, ["gtp", "--quiet"], input=query)
    assert thesis.exit_code == 0 and strong.exit_code == 0
    assert "= LABEL " in thesis.output and " move 1: " in thesis.output, thesis.output
    assert "= TEXT no case base" in strong.output
