#!/usr/bin/env python3
"""Opens a flame graph SVG in headless Chromium (tests/plot/page_check.py's
DevTools client) and works its script like a user: hover a frame, click it
(zoom), press Escape (reset), search a regular expression. Prints JSON:

    flame_js.py FILE.svg FRAME REGEX PORT_FIRST PORT_LAST SCRATCH
"""
import importlib.util
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "page_check", os.path.join(here, "..", "plot", "page_check.py"))
pc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pc)

SCRIPT = r"""
(async () => {
  const frame = %s, regex = %s;
  const gs = [...document.querySelectorAll('#frames g')];
  const find = (n) => gs.find((g) => g.querySelector('title').textContent.startsWith(n + ' ('));
  const box = (g) => ({ x: +g.querySelector('rect').getAttribute('x'),
    w: +g.querySelector('rect').getAttribute('width'), shown: g.style.display !== 'none' });
  const g = find(frame), root = find('all'), out = { frames: gs.length };
  if (!g) return JSON.stringify({ error: 'no frame ' + frame });
  out.before = box(g);
  g.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
  out.details = document.getElementById('details').textContent;
  g.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  out.zoomed = box(g);
  out.rootZoomed = box(root);
  out.hiddenWhenZoomed = gs.filter((x) => x.style.display === 'none').length;
  window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
  out.reset = box(g);
  out.hiddenAfterReset = gs.filter((x) => x.style.display === 'none').length;
  window.prompt = () => regex;
  document.getElementById('search').dispatchEvent(new MouseEvent('click', { bubbles: true }));
  out.matched = document.getElementById('matched').textContent;
  out.magenta = gs.filter((x) => x.querySelector('rect').getAttribute('fill') === 'rgb(225,0,225)').length;
  return JSON.stringify(out);
})()
"""

if __name__ == "__main__":
    svg, frame, regex, first, last, scratch = sys.argv[1:7]
    out, errors = pc.evaluate(svg, int(first), int(last), scratch,
                              SCRIPT % (json.dumps(frame), json.dumps(regex)))
    out["errors"] = errors
    print(json.dumps(out))
