// The gallery's style sheet and its one small script: plain CSS and JavaScript, no build step.

/// Static text served with the pages (the style inline, the script at /app.js).
enum WebAssets {
    /// One column on a phone; the thumbnail grid fills the width.
    static let css = """
        *{box-sizing:border-box}body{margin:0;font:16px/1.4 system-ui,sans-serif;background:#111;color:#eee}\
        a{color:#9cf}nav{display:flex;flex-wrap:wrap;gap:.2em .8em;padding:.5em;background:#222;align-items:center}\
        nav form{margin-left:auto}main{padding:.5em;max-width:1100px;margin:auto}h1{font-size:1.2em;margin:.3em 0}\
        .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(110px,1fr));gap:4px}\
        .tile{position:relative;display:block;aspect-ratio:1;background:#222}\
        .tile img{width:100%;height:100%;object-fit:cover;display:block}\
        .tile input{position:absolute;top:4px;left:4px;width:1.4em;height:1.4em;display:none}\
        .selecting .tile input{display:block}.fav{position:absolute;right:4px;bottom:2px}\
        .clip{position:absolute;left:4px;bottom:4px;padding:0 .3em;font-size:12px;background:#000b;border-radius:3px}\
        .photo img,.photo video{max-width:100%;height:auto;display:block;margin:auto}\
        table{border-collapse:collapse;width:100%}td{padding:.2em .4em;border-bottom:1px solid #333;vertical-align:top;word-break:break-all}\
        button,select,input{font:inherit;padding:.4em .7em;margin:.15em}.actions form{display:inline}\
        .live{position:relative;overflow:hidden;background:#000;text-align:center}\
        .live img{max-width:100%;touch-action:manipulation}#log{font:13px monospace;white-space:pre-wrap}\
        .error{color:#f88}.note{color:#fc6}
        """

    /// Infinite scroll, selection and archive download, camera commands, pushed events.
    static let javascript = """
        'use strict';
        const csrf = document.querySelector('meta[name=csrf]')?.content;
        async function post(url, fields) {
          const body = new URLSearchParams(fields);
          const r = await fetch(url, {method: 'POST', body, headers: {'X-CSRF-Token': csrf}});
          const text = await r.text();
          const out = document.getElementById('answer');
          if (out) { out.textContent = text; out.className = r.ok ? '' : 'error'; }
          return r;
        }
        const more = document.getElementById('more');
        if (more) {
          let loading = false;
          const io = new IntersectionObserver(async (entries) => {
            if (!entries[0].isIntersecting || loading || !more.dataset.href) return;
            loading = true;
            const r = await fetch(more.dataset.href);
            const html = await r.text();
            const t = document.createElement('template');
            t.innerHTML = html;
            const next = t.content.querySelector('#next');
            more.dataset.href = next ? next.dataset.href : '';
            if (next) next.remove();
            document.getElementById('grid').append(t.content);
            loading = false;
            if (!more.dataset.href) io.disconnect();
          });
          io.observe(more);
        }
        const select = document.getElementById('select');
        if (select) select.onclick = () => {
          document.getElementById('grid').classList.toggle('selecting');
          document.getElementById('selected').hidden = !document.getElementById('selected').hidden;
        };
        const selected = document.getElementById('selected');
        if (selected) selected.onsubmit = () => {
          const ids = [...document.querySelectorAll('#grid input:checked')].map(i => i.value);
          selected.querySelector('[name=ids]').value = ids.join(',');
          return ids.length > 0;
        };
        document.querySelectorAll('[data-command]').forEach(b => b.onclick = () => {
          const f = {command: b.dataset.command};
          const input = b.dataset.input && document.getElementById(b.dataset.input);
          if (input) f.value = input.value;
          (b.dataset.fields || '').split(' ').filter(Boolean).forEach(n => { f[n] = document.getElementById(n).value; });
          post('/camera/command', f);
        });
        const live = document.getElementById('live');
        if (live) {
          live.onclick = (e) => {
            const r = live.getBoundingClientRect();
            const x = ((e.clientX - r.left) / r.width).toFixed(3), y = ((e.clientY - r.top) / r.height).toFixed(3);
            post('/camera/command', {command: 'af-point', x, y});
          };
        }
        const log = document.getElementById('log');
        if (log && window.EventSource) {
          const es = new EventSource('/events');
          es.onmessage = (e) => {
            log.textContent = e.data + '\\n' + log.textContent.slice(0, 4000);
            const m = /^saved ([0-9a-f-]{36})/.exec(e.data);
            const grid = document.getElementById('grid');
            if (m && grid && grid.dataset.live) {
              const a = document.createElement('a');
              a.className = 'tile'; a.href = '/photo/' + m[1];
              a.innerHTML = '<img alt="" src="/photo/' + m[1] + '/thumb">';
              grid.prepend(a);
            }
            const s = document.getElementById('status');
            if (s && e.data.startsWith('status ')) {
              fetch('/status?sections=1').then(r => r.ok ? r.text() : '').then(h => { if (h) s.innerHTML = h; });
            }
          };
        }
        """
}
