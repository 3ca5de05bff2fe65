"""The app's own browser script, put into the page's <head> at launch (``launch(head=...)``):

- Ctrl+Enter (Cmd+Enter on a Mac) runs Compare while the Compare tab is shown;
- hovering or focusing a highlighted finding (Differences view, its table) outlines every
  element that carries one of its keys, in both reports, so a finding is seen on both sides.

Event delegation on ``document``: Gradio redraws its components, so nothing is bound to them.
"""
from __future__ import annotations

HEAD = """<script>
(() => {
  document.addEventListener('keydown', (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.key !== 'Enter') return;
    const run = document.querySelector('#run');
    if (run && run.offsetParent !== null && !run.disabled) { event.preventDefault(); run.click(); }
  });
  const keysOf = (el) => (el.getAttribute('data-rs-keys') || '').split(' ').filter(Boolean);
  const link = (event, on) => {
    const el = event.target && event.target.closest ? event.target.closest('[data-rs-keys]') : null;
    if (!el) return;
    const keys = keysOf(el);
    document.querySelectorAll('[data-rs-keys]').forEach((other) => {
      if (keysOf(other).some((k) => keys.includes(k))) other.classList.toggle('rs-linked', on);
    });
  };
  document.addEventListener('mouseover', (e) => link(e, true));
  document.addEventListener('mouseout', (e) => link(e, false));
  document.addEventListener('focusin', (e) => link(e, true));
  document.addEventListener('focusout', (e) => link(e, false));
})();
</script>"""
