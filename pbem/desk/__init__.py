"""The player's desk (`pbem desk`, docs/desk.md): a page in the player's own browser, served from
127.0.0.1, to read a view and build the phase's orders by clicking, or to answer a decision request.

    cli      `pbem desk`: the command (imports the rest only when run)
    server   the local web server: token, Host and origin checks, the JSON endpoints
    session  what each endpoint answers, from the view or request opened (check, save, sign, armor)
    hooks    finds each game's clicking rules (`pbem/rulesets/<id>/desk.py`) and says what they give
    static   the page: plain HTML, CSS and JavaScript, nothing loaded from elsewhere
"""
