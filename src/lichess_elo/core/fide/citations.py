"""Where each rule of the rulebook was read: the texts, their sections and addresses (pure).

``SOURCES`` is keyed by the short names the editions cite (``Edition.sources``); ``docs/rules.md``
quotes the texts.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Citation:
    """Where a rule was read: the text, the section and its address.

    Attributes:
        key: The citation key used in ``docs/rules.md``.
        title: The document as its publisher names it.
        section: The handbook section(s) or passage relied on.
        url: Its address (as cited; the handbook's archived chapters have their own).
        read: How the text reached us when not read at ``url`` itself.
    """

    key: str
    title: str
    section: str
    url: str
    read: str = ""


_ZZ = "verbatim transcription in zugzwang-foundation/Chess-ELO-Rating, docs/research"

#: Every source an edition or adjustment cites, by key.
SOURCES: dict[str, Citation] = {
    s.key: s
    for s in (
        Citation(
            "H24", "FIDE Rating Regulations effective from 1 March 2024",
            "7.1.2, 7.1.4, 7.2.1, 8.2, 8.3.1-8.3.4", "https://handbook.fide.com/chapter/B022024",
            _ZZ + "/VERIFICATION_2026-10-09.md (d0fc1293), item 1",
        ),
        Citation(
            "H24A", "FIDE Rating Regulations, amendment effective from 1 October 2025",
            "8.3.1 (players rated 2650 and above)", "https://handbook.fide.com/chapter/B022024",
            _ZZ + "/VERIFICATION_2026-10-09.md (d0fc1293), item 1; press: "
            "https://en.chessbase.com/post/fide-changes-rating-regulations",
        ),
        Citation(
            "H22", "FIDE Rating Regulations effective from 1 January 2022 (to 29 Feb 2024)",
            "8.2, 8.3.1 (one upgrade per tournament), 8.3.3",
            "https://handbook.fide.com/chapter/B022022",
            _ZZ + "/VERIFICATION_TITLES.md (2828c628), item 2",
        ),
        Citation(
            "RB24", "FIDE Rapid and Blitz Rating Regulations (from 1 March 2024)",
            "7.3.1, 7.3.3, 7.1.4", "https://handbook.fide.com/chapter/B02RBRegulations2024",
            _ZZ + "/VERIFICATION_2026-10-09.md (d0fc1293), item 2",
        ),
        Citation(
            "RB24D", "FIDE Rapid and Blitz Rating Regulations, amendment from 1 December 2024",
            "600 points / 2600 non-rating rule",
            "https://handbook.fide.com/chapter/B02RBRegulations2024",
            _ZZ + "/VERIFICATION_2026-10-09.md, item 2; zugzwang src/layer0/rules.py "
            "(db159ac1) EXCLUSION_600; lichess-org/scalachess Elo.scala (cbffc9d7)",
        ),
        Citation(
            "QC24", "FIDE Qualification Commission: new rating regulations come into force",
            "floor 1400; one-time adjustment 0.4 x (2000 - R); 400-point rule every game",
            "https://qc.fide.com/2024/03/01/new-rating-regulations-come-into-force/",
        ),
        Citation(
            "FN2538", "FIDE seeks public discussion about proposed rating changes (22 Jul 2023)",
            "the adjustment formula and the restored 400-point rule", "https://fide.com/news/2538",
        ),
        Citation(
            "RB22", "FIDE Rapid & Blitz Rating Regulations, changes from 1 October 2022",
            "K as in the standard regulations; one-time uplift to standard - 100",
            "https://handbook.fide.com/chapter/B02RBRegulations2022",
            "scacchierando.it 'Nuove regole FIDE per i rating Rapid&Blitz'; r/chess 31 Aug 2022 "
            "'FIDE will adjust Rapid & Blitz ratings' (secondary; both cite the handbook)",
        ),
        Citation(
            "F2009", "FIDE: changes to title and rating regulations effective from 1 July 2009",
            "K values unchanged (25/15/10); 400-point rule; lists every two months",
            "http://www.fide.com/component/content/article/1-fide-news/4059-changes-to-title-"
            "and-rating-regulations-effective-from-july-1st-2009.html",
        ),
        Citation(
            "PR2011", "PlayerRatings (R package), kfide: FIDE's K factors",
            "'The K factor of 30 was changed from 25 in the year 2011' (secondary; the date "
            "1 July follows the 2008 regulations' 0.1: changes come into effect on 1 July)",
            "https://rdrr.io/cran/PlayerRatings/man/kfide.html",
        ),
        Citation(
            "HB161", "FIDE Handbook, Rating Regulations before 1 July 2014 (handbook id=161)",
            "8.56: K = 30 for a player new to the rating list; K = 15 under 2400; K = 10",
            "http://www.fide.com/fide/handbook.html?id=161&view=article",
            "quoted at http://samara-chess.ru/index.php?go=Pages&in=print&id=24 (13 Jan 2015)",
        ),
        Citation(
            "HB73", "FIDE Handbook, Rating Regulations 2009 (handbook id=73)",
            "K = 25 new player; K = 15 under 2400; K = 10 once 2400 is published and 30 games "
            "completed; 9 games for an initial rating",
            "http://www.fide.com/fide/handbook.html?id=73&view=article",
            "quoted in the comments of ch.jester's FideCalculator (public code)",
        ),
        Citation(
            "AICF2014", "AICF: rating calculation for an unrated player (2014 regulations)",
            "5 rated opponents within 26 months, at least 1000; Ra + 20 per half point",
            "http://aicf.in/rating-calculation-for-an-unrated-player-in-swiss-tournaments/",
        ),
        Citation(
            "FIDECALC", "FIDE online initial-rating calculator (2022 rule), recorded 2026-10-09",
            "F-I01..F-I08, e.g. 'Rc:2000, W:3, N:5 Calculation: 2020=2000+20'",
            "https://ratings.fide.com/calc.phtml?page=initial",
            "zugzwang-foundation/Chess-ELO-Rating tests/fixtures/fide_calculator/"
            "calculator_initial_rating.json (477bdd94)",
        ),
        Citation(
            "GSU2008", "FIDE Rating Regulations as amended through 2008",
            "0.6: after 1.7.2009 the floor will be 1200",
            "https://docsbay.net/doc/5644/gens-una-sumus",
        ),
        Citation(
            "CV2011", "Updates from the FIDE front (Presidential Board 2011)",
            "floor 1000 and monthly lists from 1 July 2012",
            "http://www.chessvibes.com/reports/updates-from-the-fide-front",
        ),
        Citation(
            "CE2014", "The new FIDE rating system from 1 July 2014",
            "K 40/20/10 and the junior K from 1 July 2014 (was 30/15/10)",
            "http://www.chesselo.com/new_fide_system.html",
        ),
        Citation(
            "SAMARA", "FIDE Rating Regulations 8.56 before and after 1 July 2014",
            "8.56 verbatim", "http://samara-chess.ru/index.php?go=Pages&in=print&id=24",
        ),
        Citation(
            "FIDE2011", "FIDE: rapid and blitz rating lists (2011)",
            "lists from 2012; 'K factor used will in all cases be 20'",
            "https://old.fide.com/component/content/article/1-fide-news/5721-rapid-and-blitz-"
            "rating-lists.html",
        ),
        Citation(
            "ECF2011", "ECF: new FIDE venture (rapid and blitz)",
            "K 20 for all games and players; floor 1200, from 1 July 1000",
            "https://www.englishchess.org.uk/new-fide-venture/",
        ),
        Citation(
            "CCUP", "FIDE rating uplift change (2022)",
            "the 2022 'only one upgrade' text next to the earlier one",
            "http://www.chesschat.org/showthread.php?18971-FIDE-rating-uplift-change",
        ),
    )
}  # fmt: skip
