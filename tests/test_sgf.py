"""mcgo.sgf against references nobody here wrote: sgfmill's own board and parser, the 596
professional games of Debian's goban-original-games and Fuego's regression SGFs.

The reference replay below uses sgfmill only (its parser, its setup handling and its board).
sgfmill's board allows suicide and enforces no ko, but it reports the points it would need for
that: a move onto a stone raises, a suicide leaves the point empty, and ``play`` returns the
simple-ko point. So the reference can name the first move that breaks the rules under simple ko
without any of mcgo's code, and the final positions must then agree stone for stone.
"""

import pathlib

import pytest
from sgfmill import boards, sgf, sgf_grammar, sgf_moves, sgf_properties

from mcgo import BLACK, PASS, WHITE, Board, from_gtp
from mcgo.board import coords
from mcgo.sgf import (GameRecord, ReplayError, Setup, SgfError, parse_komi, read_directory,
                      read_game, read_games, replay, write_sgf)

COLOR = {"b": BLACK, "w": WHITE}


# ----------------------------------------------------------------------------- the reference
def sgfmill_games(data):
    """Every game of a file as sgfmill objects (sgfmill's parser, collection-aware)."""
    return [sgf.Sgf_game.from_coarse_game_tree(tree, override_encoding="latin-1")
            for tree in sgf_grammar.parse_sgf_collection(data)]


def sgfmill_replay(game):
    """Replay a game with sgfmill alone: (board, moves played, first error or None).

    A record is replayed as recorded: the error is ``(move number, reason)`` with reason
    occupied or suicide; a ko retake is played (sgfmill's board does not forbid it either).
    The point values get their whitespace removed (two goban files hold line breaks inside
    them).
    """
    size = game.get_size()
    board = boards.Board(size)
    number = 0
    for node in game.get_main_sequence():
        if node.has_setup_stones():
            board.apply_setup(*node.get_setup_stones())
        colour, raw = node.get_raw_move()
        if colour is None:
            continue
        number += 1
        move = sgf_properties.interpret_go_point(b"".join(raw.split()), size)
        if move is None:
            continue
        row, col = move
        if board.get(row, col) is not None:
            return board, number - 1, (number, "occupied")
        board.play(row, col, colour)
        if board.get(row, col) is None:
            return board, number - 1, (number, "suicide")
    return board, number, None


def sgfmill_stones(board):
    return {(COLOR[colour], coords.from_sgfmill(rc, board.side)) for colour, rc in board.list_occupied_points()}


def mcgo_stones(board):
    return {(c, p) for c in (BLACK, WHITE) for p in board.stones(c)}


def check_against_sgfmill(data, records, superko=False):
    """Replay each record on mcgo and the same game on sgfmill; they must agree on the first
    illegal move and on the stones (at the end, or just before the illegal move)."""
    reference = sgfmill_games(data)
    assert len(reference) == len(records)
    errors = []
    for game, record in zip(reference, records):
        ref_board, played, ref_error = sgfmill_replay(game)
        try:
            board = replay(record, superko=superko)
            error = None
        except ReplayError as e:
            board, error = e.board, (e.move_number, e.reason)
            errors.append(e)
        assert error == ref_error, record.source
        assert len(board.moves) == played
        assert mcgo_stones(board) == sgfmill_stones(ref_board), record.source
    return errors


# ----------------------------------------------------------------------------- goban games
@pytest.fixture(scope="module")
def goban_files(goban_games_dir):
    files = sorted(p for p in goban_games_dir.iterdir() if p.suffix in (".sgf", ".mgt"))
    assert len(files) == 596  # the package's own count (dpkg -L goban-original-games)
    return files


@pytest.fixture(scope="module")
def goban_records(goban_files):
    out = {}
    for path in goban_files:
        games = list(read_games(path, errors="yield"))
        assert len(games) == 1
        out[path] = games[0]
    return out


def test_every_goban_game_reads(goban_records):
    bad = [str(r) for r in goban_records.values() if isinstance(r, SgfError)]
    assert bad == []
    for record in goban_records.values():
        assert record.size == 19
        assert record.black and record.white and record.result
        assert len(record.moves) > 40


def test_goban_games_replay_like_sgfmill(goban_files, goban_records):
    """All 596 games: the same first illegal move as sgfmill's board and the same stones.

    mcgo replays with positional superko (its default) while the reference knows simple ko
    only, so this also shows that superko never fires in these games."""
    errors = []
    for path in goban_files:
        errors += check_against_sgfmill(path.read_bytes(), [goban_records[path]], superko=True)
    # A handful of transcription errors, each a real move onto a stone (confirmed by sgfmill).
    assert 1 <= len(errors) <= 10
    for e in errors:
        assert e.reason == "occupied"
        assert e.board.color_at(e.move) != e.board.EMPTY
        assert e.move_number <= len(e.record.moves)
        assert e.record.moves[e.move_number - 1] == (e.color, e.move)


def test_goban_turn_repeats_are_real_and_replay_as_recorded(goban_files, goban_records):
    """Records where one colour moves twice: sgfmill sees the same colours in the same place,
    and mcgo plays them as recorded, to the same stones as sgfmill's board."""
    repeated = 0
    for path in goban_files:
        record = goban_records[path]
        (game,) = sgfmill_games(path.read_bytes())
        colours = [node.get_raw_move()[0] for node in game.get_main_sequence()
                   if node.get_raw_move()[0] is not None]
        assert [COLOR[c] for c in colours] == [c for c, _ in record.moves]
        expected = [n for n in range(2, len(colours) + 1) if colours[n - 1] == colours[n - 2]]
        assert record.turn_repeats() == expected
        if expected:
            repeated += 1
            ref_board, played, ref_error = sgfmill_replay(game)
            if ref_error is None:
                board = replay(record)
                assert len(board.moves) == played
                assert mcgo_stones(board) == sgfmill_stones(ref_board), path
    assert 0 < repeated < 60


def test_goban_headers_match_sgfmill(goban_files, goban_records):
    for path in goban_files[::7]:
        record = goban_records[path]
        (game,) = sgfmill_games(path.read_bytes())
        root = game.get_root()
        assert record.black == " ".join(game.get_player_name("b").split())
        assert record.white == " ".join(game.get_player_name("w").split())
        if root.has_property("KM"):
            assert record.komi == game.get_komi()
        assert record.result == " ".join(root.get("RE").split())


def test_replay_max_moves_matches_sgfmill_prefix(goban_files, goban_records):
    path = goban_files[0]
    (game,) = sgfmill_games(path.read_bytes())
    board = boards.Board(19)
    for node in game.get_main_sequence()[1:41]:
        colour, move = node.get_move()
        if move is not None:
            board.play(*move, colour)
    assert mcgo_stones(replay(goban_records[path], max_moves=40)) == sgfmill_stones(board)


def test_goban_write_read_round_trip(goban_files, goban_records):
    for path in goban_files[::50]:
        record = goban_records[path]
        again = read_game(write_sgf(record))
        for name in ("size", "komi", "handicap", "black", "white", "black_rank", "white_rank",
                     "result", "date", "event", "moves", "setups", "comments"):
            assert getattr(again, name) == getattr(record, name), (path, name)
        # and sgfmill itself reads what we wrote
        written = sgf.Sgf_game.from_bytes(write_sgf(record))
        assert len(written.get_main_sequence()) - 1 == len(record.moves)


# ----------------------------------------------------------------------------- Fuego files
def test_every_fuego_regression_sgf_loads(fuego_regression_dir):
    folder = fuego_regression_dir / "sgf"
    files = sorted(p for p in folder.rglob("*.sgf"))
    assert len(files) > 500
    items = list(read_directory(folder))
    assert [str(i) for i in items if isinstance(i, SgfError)] == []
    assert {pathlib.Path(r.source) for r in items} == set(files)
    assert {r.size for r in items} >= {9, 13, 19}


def test_fuego_games_replay_like_sgfmill(fuego_regression_dir):
    errors = []
    for path in sorted((fuego_regression_dir / "sgf").rglob("*.sgf")):
        errors += check_against_sgfmill(path.read_bytes(), list(read_games(path)))
    assert errors == []  # under simple ko every one of them replays


def test_a_record_that_repeats_a_position_loads_as_recorded(fuego_regression_dir):
    # the file's own comment: "W B9 is forbidden if positional superko is used"; the record
    # plays it, so it loads to its last move, and the board's rule applies to later moves only
    path = fuego_regression_dir / "sgf" / "repetition" / "positional-superko.sgf"
    record = read_game(path)
    assert "B9 is forbidden if positional superko" in record.comments[3]
    assert check_against_sgfmill(path.read_bytes(), [record], superko=True) == []
    board = replay(record)
    assert len(board.moves) == len(record.moves) and board.superko


# ----------------------------------------------------------------------------- quirks
def test_setup_after_the_root():
    data = b"(;GM[1]SZ[9];B[ee]AB[aa][ba];W[cc];AW[ab]AE[aa];B[dd];W[ca])"
    with pytest.raises(Exception):  # the quirk: sgfmill's helper refuses setup after the root
        sgf_moves.get_setup_and_moves(sgf.Sgf_game.from_bytes(data))
    record = read_game(data)
    assert record.setups == {0: Setup(black=(from_gtp("A9", 9), from_gtp("B9", 9))),
                             2: Setup(white=(from_gtp("A8", 9),), empty=(from_gtp("A9", 9),))}
    assert record.gtp_moves() == [("B", "E5"), ("W", "C7"), ("B", "D6"), ("W", "C9")]
    errors = check_against_sgfmill(data, [record])
    assert errors == []
    assert mcgo_stones(replay(record, max_moves=0)) == {(BLACK, from_gtp("A9", 9)), (BLACK, from_gtp("B9", 9))}
    after_two = mcgo_stones(replay(record, max_moves=2))  # the AW/AE node stands before move 3
    assert (WHITE, from_gtp("A8", 9)) in after_two and (BLACK, from_gtp("A9", 9)) not in after_two
    board = replay(record)
    assert board.color_at("A9") == board.EMPTY and board.color_at("A8") == WHITE
    assert board.color_at("B9") == BLACK


def test_missing_charset_with_utf8_cut_mid_character():
    name = "李昌镐".encode("utf-8")
    data = b"(;GM[1]PB[" + name[:-1] + b"]PW[" + "Cho Hun-hyun 조훈현".encode() + b"];B[pd])"
    record = read_game(data)
    assert record.black == "李昌\ufffd"
    assert record.white == "Cho Hun-hyun 조훈현"
    assert any("U+FFFD" in w and "PB" in w for w in record.warnings)
    # sgfmill's own default (ISO-8859-1) would have given mojibake
    assert sgf.Sgf_game.from_bytes(data).get_player_name("w") != "Cho Hun-hyun 조훈현"


def test_gb2312_names():
    text = "(;GM[1]CA[GB2312]PB[古力]PW[柯洁]C[第一局];B[pd];W[dp]C[好棋])"
    record = read_game(text.encode("gb2312"))
    assert (record.black, record.white) == ("古力", "柯洁")
    assert record.comments == {0: "第一局", 2: "好棋"}
    assert record.warnings == []
    # a GBK-only character (outside GB2312) under CA[GB2312] still decodes
    record = read_game("(;CA[gb2312]PB[朱镕基])".encode("gbk"))
    assert record.black == "朱镕基"


def test_unknown_charset_falls_back_to_utf8():
    record = read_game("(;CA[x-unheard-of]PB[Å])".encode("utf-8"))
    assert record.black == "Å"
    assert any("unknown charset" in w for w in record.warnings)


def test_multi_game_collection():
    data = b"(;SZ[9]PB[one];B[ee])\n(;SZ[13]PB[two];B[gg];W[dd])\n(;SZ[19]PB[three];B[pd])"
    assert sgf.Sgf_game.from_bytes(data).get_player_name("b") == "one"  # sgfmill: first only
    records = list(read_games(data))
    assert [(r.black, r.size, len(r.moves), r.game_index) for r in records] == \
        [("one", 9, 1, 0), ("two", 13, 2, 1), ("three", 19, 1, 2)]
    assert check_against_sgfmill(data, records) == []


def test_collection_with_a_truncated_game_keeps_the_earlier_ones():
    data = b"(;PB[one];B[pd])(;PB[two];B[pd];W[d"
    items = list(read_games(data, errors="yield"))
    assert items[0].black == "one"
    assert isinstance(items[1], SgfError) and items[1].game_index == 1
    assert "truncated" in items[1].reason
    with pytest.raises(SgfError, match="game 2: truncated"):
        list(read_games(data))


@pytest.mark.parametrize("data, reason", [
    (b"", "empty file"),
    (b"  \r\n", "empty file"),
    (b"this is not SGF", "no SGF game"),
    (b"(;GM[1]SZ[19];B[pd];W[dp", "truncated"),
    (b"(;GM[1]SZ[19];B[pd];W[dp];", "truncated"),
    (b"(;SZ[9];B[jj])", "move 1 B[jj] is not a point of the 9x9 board"),
    (b"(;SZ[9]AB[aa][zz])", "names a point off the 9x9 board"),
    (b"(;SZ[30];B[aa])", "board size 30 is not supported"),
    (b"(;SZ[19:13])", "rectangular board"),
    (b"(;SZ[big])", "bad board size"),
    (b"(;GM[2]SZ[8])", "not a game of Go"),
    (b"(;SZ[9];B[aa]W[bb])", "both B and W"),
])
def test_bad_input_is_an_error_with_its_reason(data, reason):
    with pytest.raises(SgfError) as info:
        read_game(data)
    assert reason in info.value.reason
    assert reason in str(info.value)


def test_unreadable_sources(tmp_path):
    with pytest.raises(SgfError, match="cannot read file"):
        read_game(tmp_path / "missing.sgf")
    with pytest.raises(TypeError, match="as bytes"):
        read_game("(;SZ[9];B[ee])")
    with open(tmp_path / "text.sgf", "w") as f:
        f.write("(;B[aa])")
    with open(tmp_path / "text.sgf") as f, pytest.raises(TypeError, match="binary mode"):
        read_game(f)
    with open(tmp_path / "text.sgf", "rb") as f:
        assert read_game(f).gtp_moves() == [("B", "A19")]


def test_odd_header_values_are_warnings_not_errors():
    record = read_game(b"(;SZ[19:19]HA[inf]KM[nan]PL[X];B[pd])")
    assert record.size == 19 and record.handicap == 0 and record.komi is None
    assert record.player_to_move is None and len(record.warnings) == 3
    assert len(record.moves) == 1


def test_read_directory_skips_bad_files_with_reasons(tmp_path):
    (tmp_path / "a-empty.sgf").write_bytes(b"")
    (tmp_path / "b-cut.sgf").write_bytes(b"(;SZ[19];B[pd];W[")
    (tmp_path / "c-good.mgt").write_bytes(b"\n(;SZ[19];B[pd];W[dd])")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "d-two.sgf").write_bytes(b"(;B[aa])(;W[bb])")
    (tmp_path / "notes.txt").write_bytes(b"(;B[aa])")
    items = list(read_directory(tmp_path))
    assert [(pathlib.Path(i.source).name, isinstance(i, SgfError)) for i in items] == [
        ("a-empty.sgf", True), ("b-cut.sgf", True), ("c-good.mgt", False),
        ("d-two.sgf", False), ("d-two.sgf", False)]
    assert items[0].reason == "empty file" and "truncated" in items[1].reason


def test_point_values_broken_by_line_wrapping():
    # as in goban's hon-50-2.mgt: a mailer wrapped the line inside W[oq]
    record = read_game(b"(;SZ[19];B[qd];W[oq\r\n];B[d\nd])")
    assert record.gtp_moves() == [("B", "R16"), ("W", "P3"), ("B", "D16")]
    assert len(record.warnings) == 2


def test_komi():
    def komi(value):
        return read_game(b"(;KM[" + value + b"])").komi
    assert komi(b"650") == 6.5          # Fox, Japanese rules
    assert komi(b"375") == 7.5          # Fox, Chinese rules: 3.75 stones
    assert komi(b"50") == 0.5           # Fox handicap game
    assert komi(b"6.5") == 6.5
    assert komi(b"0.50") == 0.5         # KGS writes two decimals
    assert komi(b"-20.00") == -20.0
    assert komi(b"50.00") == 50.0       # a decimal point means points, never scaled
    assert komi(b"5.") == 5.0           # as in goban's Hon-*.sgf
    assert komi(b"0") == 0.0
    assert read_game(b"(;SZ[19])").komi is None
    record = read_game(b"(;KM[650])")
    assert any("KM[650]" in w for w in record.warnings)
    record = read_game(b"(;KM[six])")
    assert record.komi is None and "not a number" in record.warnings[0]
    assert read_game(b"(;KI[11])").komi == 5.5   # old IGS files: komi doubled
    assert parse_komi("325") == (6.5, parse_komi("325")[1])
    assert replay(read_game(b"(;SZ[9]KM[650])")).komi == 6.5


def test_header_fields_and_handicap():
    data = (b"(;GM[1]FF[4]CA[UTF-8]SZ[19]HA[2]KM[0.50]PB[Shin]BR[9p]PW[Park]WR[9p]"
            b"DT[2024-05-01]RE[W+1.5]EV[Cup]RU[Japanese]PL[W]AB[dp][pd];W[dd];B[pp])")
    record = read_game(data)
    assert (record.handicap, record.komi, record.black, record.black_rank, record.white,
            record.white_rank, record.date, record.result, record.event, record.rules) == \
        (2, 0.5, "Shin", "9p", "Park", "9p", "2024-05-01", "W+1.5", "Cup", "Japanese")
    assert record.player_to_move == WHITE and record.winner == WHITE
    assert sorted(record.setup.black) == sorted([from_gtp("D4", 19), from_gtp("Q16", 19)])
    assert record.properties["RU"] == ["Japanese"]
    game = sgf.Sgf_game.from_bytes(data)
    assert record.handicap == game.get_handicap() and record.komi == game.get_komi()
    assert check_against_sgfmill(data, [record]) == []


def test_passes_and_tt():
    record = read_game(b"(;SZ[19];B[pd];W[tt];B[];W[dd])")
    assert [p for _, p in record.moves][1:3] == [PASS, PASS]
    board = replay(record)
    assert board.to_move == BLACK and len(board.moves) == 4


# ----------------------------------------------------------------------------- replay errors
def test_suicide_is_refused_like_sgfmill():
    # white A5 into black's corner: no liberty and nothing captured
    data = b"(;SZ[9]AB[ba][ab][bb];W[aa])"
    errors = check_against_sgfmill(data, [read_game(data)])
    assert [(e.move_number, e.vertex, e.reason) for e in errors] == [(1, "A9", "suicide")]


def test_a_recorded_ko_retake_is_played():
    #   A B C D     white B4 captures C4; black retakes at C4 at once: the rules forbid it,
    # 5 . X O .     but the record has it, so it is replayed (a record is a fact)
    # 4 X . X O
    # 3 . X O .
    data = b"(;SZ[5]AB[ba][ab][cb][bc]AW[ca][db][cc];W[bb];B[cb])"
    record = read_game(data)
    assert check_against_sgfmill(data, [record]) == []
    board = replay(record)
    assert board.captures(BLACK) == 1 and board.color_at("B4") == board.EMPTY
    assert board.legality("B4", WHITE) == "ko"          # the rules hold for the next move


def test_a_handicap_without_stones_gets_the_fixed_ones(gnugo_command, tmp_path):
    """``HA[n]`` and no ``AB``: the same stones after loading as GNU Go's ``loadsgf``."""
    from mcgo.gtp.controller import GtpEngine
    for size, stones in ((9, 2), (9, 5), (13, 4), (19, 3), (19, 9)):
        path = tmp_path / f"ha{size}-{stones}.sgf"
        path.write_bytes(f"(;SZ[{size}]HA[{stones}]KM[0.5];W[ab];B[ba])".encode())
        board = replay(read_game(path))
        with GtpEngine(gnugo_command) as gnugo:
            gnugo.send(f"loadsgf {path}")
            reference = {colour: set(gnugo.send(f"list_stones {colour}").split())
                         for colour in ("black", "white")}
        ours = {"black": {coords.to_gtp(p, size) for p in board.stones(BLACK)},
                "white": {coords.to_gtp(p, size) for p in board.stones(WHITE)}}
        assert ours == reference, (size, stones)
        assert len(ours["black"]) == stones + 1


def test_replay_error_carries_move_and_board():
    record = read_game(b"(;SZ[9];B[ee];W[dd];B[dd])")
    with pytest.raises(ReplayError) as info:
        replay(record)
    e = info.value
    assert (e.move_number, e.vertex, e.color, e.reason) == (3, "D6", BLACK, "occupied")
    assert "move 3 (black D6) is illegal: occupied" in str(e)
    assert e.board.color_at("D6") == WHITE and len(e.board.moves) == 2


def test_same_player_twice_is_played_as_recorded():
    record = read_game(b"(;SZ[9];B[ee];B[dd];W[cc];W[gg];W[gc])")
    assert record.turn_repeats() == [2, 4, 5]
    board = replay(record)
    assert board.color_at("D6") == BLACK and board.to_move == BLACK
    assert len(board.stones(WHITE)) == 3


def test_too_short():
    record = read_game(b"(;SZ[9];B[ee];W[dd])")
    with pytest.raises(ReplayError) as info:
        replay(record, min_moves=40)
    assert info.value.reason.startswith("too short") and info.value.move_number == 2
    assert len(replay(record, min_moves=2).moves) == 2


def test_setup_without_liberties_is_a_replay_error():
    record = read_game(b"(;SZ[9]AB[aa]AW[ba][ab];B[ee])")
    with pytest.raises(ReplayError, match="setup"):
        replay(record)


# ----------------------------------------------------------------------------- writing
def test_write_then_read_round_trip():
    size = 13
    record = GameRecord(
        size=size, komi=6.5, handicap=2, black="黒 player", white="W [bracket] \\ back",
        black_rank="3d", white_rank="5k", result="B+R", date="2024-01-02", event="Test",
        rules="Chinese", player_to_move=WHITE,
        setups={0: Setup(black=(from_gtp("D4", size), from_gtp("K10", size))),
                3: Setup(white=(from_gtp("A1", size),), empty=(from_gtp("D4", size),))},
        moves=[(WHITE, from_gtp("C3", size)), (BLACK, from_gtp("G7", size)),
               (WHITE, PASS), (BLACK, from_gtp("N13", size))],
        comments={0: "start", 1: "a comment]\nwith two lines", 4: "end"})
    data = write_sgf(record)
    again = read_game(data)
    for name in ("size", "komi", "handicap", "black", "white", "black_rank", "white_rank", "result",
                 "date", "event", "rules", "player_to_move", "moves", "setups", "comments"):
        assert getattr(again, name) == getattr(record, name), name
    assert again.warnings == []
    # an independent reader agrees on the moves
    game = sgf.Sgf_game.from_bytes(data)
    moves = [node.get_move() for node in game.get_main_sequence() if node.get_move()[0]]
    assert [(COLOR[c], coords.from_sgfmill(m, size)) for c, m in moves] == record.moves
    assert game.get_player_name("w") == record.white
    assert check_against_sgfmill(data, [again]) == []


def test_write_to_path(tmp_path):
    record = GameRecord(size=9, komi=7.0, moves=[(BLACK, from_gtp("E5", 9))], result="B+R")
    path = tmp_path / "g.sgf"
    data = write_sgf(record, path)
    assert path.read_bytes() == data and read_game(path).result == "B+R"


def test_replayed_board_result_written_and_read_back():
    board = Board(9, komi=7.0)
    for vertex in ("E5", "C3", "G7", "pass", "pass"):
        board.play(vertex)
    record = GameRecord(size=9, komi=board.komi, moves=list(board.moves), result=board.result())
    again = read_game(write_sgf(record))
    assert replay(again).result() == board.result() == again.result


def test_a_record_with_a_triple_ko_loads_to_its_last_move(fuego_regression_dir):
    """Fuego's triple-ko record: its last move repeats a position (forbidden under
    situational superko, its comment says); loadsgf loads it as recorded, to the end."""
    from helpers import Session
    path = fuego_regression_dir / "sgf" / "repetition" / "triple-ko.sgf"
    record = read_game(path)
    assert "forbidden if situational superko" in " ".join(record.comments.values())
    session = Session(size=9)
    assert session.send(f"loadsgf {path}") == "black"
    board = session.engine.game.board
    assert len(board.moves) == len(record.moves) == 6
    (game,) = sgfmill_games(path.read_bytes())
    ref_board, played, error = sgfmill_replay(game)
    assert error is None and mcgo_stones(board) == sgfmill_stones(ref_board)
