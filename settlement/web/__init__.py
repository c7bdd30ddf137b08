"""The HTML door: the club's pages, one module a subject (clubs, sessions, table, hands, share, stats, players,
tokens, offline), with their forms (`forms/`) and template tags (`templatetags/`).

Thin views: they parse the request, ask `policy`, call a service or a selector and pick a template under
`templates/settlement/`; `presentation` lays out what the templates show. `settlement/urls.py` routes here.
"""
