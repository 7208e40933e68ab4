"""The event layer: a tournament resolved once into what the rules need, rated into a
report, and events gathered into a rating period (FIDE B.02 §8.3).

Along the data's path, top to bottom (each module imports only those below it):

* :mod:`~xl_fide.event.period` — a rating period over many events
  (:func:`build_period`), and :mod:`~xl_fide.event.player_period` — one player's games
  over a period (the games CSV of ``xl-fide rate``);
* :mod:`~xl_fide.event.report` — one event's rating report (:func:`build_report`);
* :mod:`~xl_fide.event.months` — the calendar months of an event over 30 days (the
  interim reports FIDE rates, B.02 §8.3);
* :mod:`~xl_fide.event.resolve` — the event resolved once (:func:`event_rules`): date,
  time control, rule edition, its entrants and their K.
"""
