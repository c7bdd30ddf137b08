"""`runserver` (what `make run` serves with) without the ~40 ms stall an answer on a kept-alive connection.

The static files' runserver, with its options, on baifen_ledger/devserver.py's server. settlement stands before
django.contrib.staticfiles in INSTALLED_APPS so that this command is the one `manage.py runserver` runs.
"""

from django.contrib.staticfiles.management.commands.runserver import Command as StaticRunserverCommand

from baifen_ledger.devserver import NoDelayWSGIServer


class Command(StaticRunserverCommand):
    server_cls = NoDelayWSGIServer
