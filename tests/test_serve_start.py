"""``keizer serve`` starts without what its first pages do not need: the site generator (the
Publish page's button and a result's live publish import it), segno (a QR code's first
drawing), the careers' club rating and the team event's operations (their own pages).  They
took some 130 ms of the server's start-up, and the tests start a dozen servers a run."""

from __future__ import annotations

import subprocess
import sys

from served import sample_copy

#: What the server imports only when a page needs it (each page's own test uses it).
LATER = ("keizer.publish", "segno", "keizer.operations.careers", "keizer.operations.kept_careers",
         "keizer.operations.teamevent")


def test_keizer_serve_answers_its_first_pages_without_the_rarer_modules(tmp_path):
    """The real command, up to waitress: the server it would run answers the home page and the
    login page (through the app, as waitress passes requests on), then says what is loaded."""
    probe = ("import sys, waitress.server\n"
             "class Answered:\n"
             "    def __init__(self, app): self.app = app\n"
             "    def run(self):\n"
             "        client = self.app.test_client()\n"
             "        print('ANSWERS', [client.get(page).status_code for page in ('/', '/login', '/c/1/standings')])\n"
             f"        print('LOADED', sorted(m for m in sys.modules if m.startswith({LATER!r})))\n"
             "    def close(self): pass\n"
             "waitress.server.create_server = lambda app, **options: Answered(app)\n"
             "from keizer.cli import main\n"
             f"sys.argv = ['keizer', '--db', {str(sample_copy(tmp_path))!r}, 'serve', '--port', '8765']\n"
             "main()\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert "ANSWERS [200, 200, 200]" in out.splitlines()
    assert out.strip().splitlines()[-1] == "LOADED []"
