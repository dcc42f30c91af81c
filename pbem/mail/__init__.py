"""The mail judge and forum play: pbem running a game by itself over real mail.

The judge uses the core only through its public API (`pbem.core.api`: inspect, submit,
adjudicate, status, the read-only archive) and the pictures and words through `pbem.render`.

Small modules, one job each:

    limits      the hostile-input bounds every other module honours
    message     parsing one mail: headers, text bodies, attachments (never trusting it)
    autoreply   RFC 3834: which mail must never be answered (auto replies, bounces, lists)
    compose     building the judge's answers as proper MIME mail
    state       the judge's own memory (answered Message-IDs, reminders, announcements)
    intake      one mail in: its signed files through the core's `inspect` and `submit`, answers out
    deadlines   durations, deadlines and reminders from a game's settings
    report      what a result mail carries from pbem.render: the report, and the map if drawn
    transport   what the judge needs of an inbox and of a sender
    urls        imap[s]:// and smtp[s]:// URLs (TLS, STARTTLS, passwords kept out of argv)
    maildir     the Maildir transport (the embedded default)
    imap        the IMAP transport (TLS/STARTTLS, login, IDLE where offered)
    smtp        the SMTP sender (TLS/STARTTLS, login)
    judge       the loop: mail in, adjudicate, answers and results out
    forum       the public (spectator) facts of a turn, and the post written with its map
    post        the post's words: the report's sentences, a short public position, what to check
    markup      Markdown (GitHub, Discourse) and BBCode (phpBB's default tags)
    bots        bot players that play by mail (tests and demos)
    cli         `pbem judge` and `pbem post`
"""
