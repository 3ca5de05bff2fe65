"""The app's own browser script, put into the page's <head> at launch (``launch(head=...)``):

- Ctrl+Enter (Cmd+Enter on a Mac) runs Compare while the Compare tab is shown;
- hovering a highlighted finding (Differences view, its table) outlines it in both reports and
  the CLEAR rows of the conditions it names; hovering a CREPE or VERT error category outlines
  the findings of that kind; hovering a CLEAR cell outlines its row and the sentences about its
  condition; hovering an edge or a sentence of the RadSEM graph outlines its findings. Links are
  data attributes (and the graph's customdata) written by ui.differences and the views;
- Gradio's slider reset buttons lose their bare "↺" character (a CSS icon takes its place).

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
  const words = (value, sep) => (value || '').split(sep).filter(Boolean);
  const marks = () => [...document.querySelectorAll('#differences mark[data-status]')];
  const clearRow = (table, row) => [...table.querySelectorAll(`[role=gridcell][data-row="${row}"]`)];
  const clearRowsAbout = (topics) => {
    const found = [];
    document.querySelectorAll('[id^=table-clear] [role=gridcell][data-col="0"]').forEach((cell) => {
      if (topics.includes(cell.innerText.trim())) found.push(...clearRow(cell.closest('[id^=table-clear]'), cell.dataset.row));
    });
    return found;
  };
  // What to outline while the pointer is on el: the same finding in both reports (and the CLEAR
  // rows of the conditions it mentions); for a CREPE / VERT error category, the findings of that
  // kind; for a CLEAR cell, its row and the sentences about its condition.
  const related = (el) => {
    if (!el || !el.closest) return [];
    const keyed = el.closest('[data-rs-keys]');
    if (keyed) {
      const keys = words(keyed.getAttribute('data-rs-keys'), ' ');
      const same = [...document.querySelectorAll('[data-rs-keys]')].filter(
        (o) => words(o.getAttribute('data-rs-keys'), ' ').some((k) => keys.includes(k)));
      return same.concat(clearRowsAbout(words(keyed.getAttribute('data-rs-topics'), '|')));
    }
    const category = el.closest('[data-rs-status]');
    if (category) {
      const status = category.getAttribute('data-rs-status');
      return [category, ...marks().filter((m) => m.dataset.status === status)];
    }
    const cell = el.closest('[id^=table-clear] [role=gridcell]');
    if (cell) {
      const table = cell.closest('[id^=table-clear]');
      const row = clearRow(table, cell.dataset.row);
      const name = row.length ? row.find((c) => c.dataset.col === '0').innerText.trim() : '';
      return row.concat(marks().filter((m) => words(m.dataset.rsTopics, '|').includes(name)));
    }
    return [];
  };
  const link = (event, on) => related(event.target).forEach((o) => o.classList.toggle('rs-linked', on));
  // RadSEM graph: its edges and nodes carry their sentences (customdata); outline the findings
  // whose row in the Differences table holds one of them.
  const bySentences = (sentences) => {
    const keys = [];
    document.querySelectorAll('#differences tr[data-rs-keys]').forEach((row) => {
      const cells = [...row.querySelectorAll('td.rs-ref, td.rs-cand')].map((c) => c.innerText.trim());
      if (cells.some((c) => sentences.includes(c))) keys.push(...words(row.getAttribute('data-rs-keys'), ' '));
    });
    return [...document.querySelectorAll('[data-rs-keys]')].filter(
      (o) => words(o.getAttribute('data-rs-keys'), ' ').some((k) => keys.includes(k)));
  };
  let graphLinked = [];
  const hookGraph = (gd) => {
    if (!gd || gd.rsHooked || typeof gd.on !== 'function') return;
    gd.rsHooked = true;
    gd.on('plotly_hover', (data) => {
      const sentences = (data.points || []).flatMap((p) => (Array.isArray(p.customdata) ? p.customdata : []));
      graphLinked.forEach((o) => o.classList.remove('rs-linked'));
      graphLinked = bySentences(sentences.map((s) => String(s).trim()));
      graphLinked.forEach((o) => o.classList.add('rs-linked'));
    });
    gd.on('plotly_unhover', () => { graphLinked.forEach((o) => o.classList.remove('rs-linked')); graphLinked = []; });
  };
  document.addEventListener('mouseover', (e) => {
    const plot = e.target && e.target.closest ? e.target.closest('[id^=plot-radsem] .js-plotly-plot') : null;
    if (plot) hookGraph(plot);
  });
  // Gradio's slider reset button shows a bare "↺" beside its aria-label, which axe cannot tell
  // is part of the name: the character goes, a CSS icon of the text colour (ui/style.css) stays.
  const plainResets = () => document.querySelectorAll('.reset-button').forEach((b) => {
    if (b.textContent) b.textContent = '';
  });
  new MutationObserver(plainResets).observe(document.documentElement, {childList: true, subtree: true});
  document.addEventListener('mouseover', (e) => link(e, true));
  document.addEventListener('mouseout', (e) => link(e, false));
  document.addEventListener('focusin', (e) => link(e, true));
  document.addEventListener('focusout', (e) => link(e, false));
})();
</script>"""
