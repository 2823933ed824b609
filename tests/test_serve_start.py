"""``keizer serve`` starts without what its first pages do not need: the site generator (the
Publish page's button and a result's live publish import it), segno (a QR code's first
drawing), the careers' club rating and the team event's operations (their own pages).  They
took some 130 ms of the server's start-up, and the tests start a dozen servers a run.  And the
templates of its first pages are loaded, not compiled, when another process compiled them
before (keizer.web.compiled)."""

from __future__ import annotations

import subprocess
import sys

from served import sample_copy
from web_helpers import sample_app

#: What the server imports only when a page needs it (each page's own test uses it).
LATER = ("keizer.publish", "segno", "keizer.operations.careers", "keizer.operations.kept_careers",
         "keizer.operations.teamevent")
#: The first pages the server answers.
PAGES = ("/", "/login", "/c/1/standings")


def test_keizer_serve_answers_its_first_pages_without_the_rarer_modules_nor_compiling(tmp_path):
    """The real command, up to waitress: the server it would run answers the home page, the
    login page and a standing (through the app, as waitress passes requests on), then says what
    is loaded, and how many templates it compiled: none, as this process rendered those pages
    before it started."""
    (tmp_path / "before").mkdir()
    app, _db = sample_app(tmp_path / "before")
    assert [app.test_client().get(page).status_code for page in PAGES] == [200, 200, 200]
    probe = ("import sys, waitress.server\n"
             "from unittest import mock\n"
             "from jinja2 import Environment\n"
             "class Answered:\n"
             "    def __init__(self, app): self.app = app\n"
             "    def run(self):\n"
             "        client = self.app.test_client()\n"
             "        with mock.patch.object(Environment, '_compile', autospec=True, side_effect=Environment._compile) as c:\n"
             f"            print('ANSWERS', [client.get(page).status_code for page in {PAGES!r}])\n"
             "        print('COMPILED', c.call_count)\n"
             f"        print('LOADED', sorted(m for m in sys.modules if m.startswith({LATER!r})))\n"
             "    def close(self): pass\n"
             "waitress.server.create_server = lambda app, **options: Answered(app)\n"
             "from keizer.cli import main\n"
             f"sys.argv = ['keizer', '--db', {str(sample_copy(tmp_path))!r}, 'serve', '--port', '8765']\n"
             "main()\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert "ANSWERS [200, 200, 200]" in out.splitlines() and "COMPILED 0" in out.splitlines()
    assert out.strip().splitlines()[-1] == "LOADED []"
