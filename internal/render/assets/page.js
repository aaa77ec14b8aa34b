// In-page half of the renderer: sets a slide's DOM, typesets math, waits for
// images and fonts, and reads back geometry in one round trip. Evaluated
// once per tab through the DevTools protocol (the shell page's CSP allows no
// script of its own).
(() => {
  const R = (b, o) => ({x: b.left - o.left, y: b.top - o.top, width: b.width, height: b.height});
  const inter = (a, b) => {
    const x0 = Math.max(a.x, b.x), y0 = Math.max(a.y, b.y);
    const x1 = Math.min(a.x + a.width, b.x + b.width), y1 = Math.min(a.y + a.height, b.y + b.height);
    return {x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0)};
  };
  const rgba = (s) => {
    const m = /rgba?\(([^)]+)\)/.exec(s || '');
    if (!m) return null;
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return [p[0] / 255, p[1] / 255, p[2] / 255, p.length > 3 ? p[3] : 1];
  };
  // lineBoxes merges character rects into one box per visual line.
  function lineBoxes(rects) {
    const rs = rects.filter(r => r.width > 0.5 && r.height > 0.5).sort((a, b) => a.top - b.top);
    const out = [];
    for (const r of rs) {
      const last = out[out.length - 1];
      if (last && r.top + r.height / 2 <= last.bottom) {
        last.left = Math.min(last.left, r.left); last.right = Math.max(last.right, r.right);
        last.top = Math.min(last.top, r.top); last.bottom = Math.max(last.bottom, r.bottom);
      } else {
        out.push({left: r.left, right: r.right, top: r.top, bottom: r.bottom});
      }
    }
    return out;
  }
  function lineCount(rects) {
    const rs = rects.filter(r => r.width > 0.5 && r.height > 0.5).sort((a, b) => a.top - b.top);
    let lines = 0, bottom = -Infinity;
    for (const r of rs) {
      const mid = r.top + r.height / 2;
      if (mid > bottom) { lines++; bottom = r.bottom; } else { bottom = Math.max(bottom, r.bottom); }
    }
    return lines;
  }
  // Overflow of a text box's flow past the box itself, px (<= 0 fits).
  function overflow(el, tx) {
    const top = tx.offsetTop, left = tx.offsetLeft;
    return {
      y: Math.max(top + tx.offsetHeight - el.clientHeight, -top),
      x: Math.max(left + tx.scrollWidth - el.clientWidth, -left),
    };
  }
  // Shrink-on-overflow (normAutofit) for the texts the request asks to fit
  // (data-autofit; Request.FitText): scale the text's sizes by the largest
  // factor in [0.25, 1] that fits, by bisection (7 steps, < 1% off). Other
  // normAutofit texts keep the scale their file stores (data-fs).
  function autofit(root) {
    for (const el of root.querySelectorAll('[data-autofit]')) {
      const tx = el.querySelector(':scope > .tx');
      if (!tx) continue;
      const fits = () => { const o = overflow(el, tx); return o.x <= 1 && o.y <= 1; };
      if (fits()) continue;
      let lo = 0.25, hi = 1;
      for (let i = 0; i < 7; i++) {
        const mid = (lo + hi) / 2;
        tx.style.setProperty('--fs', String(mid));
        if (fits()) lo = mid; else hi = mid;
      }
      tx.style.setProperty('--fs', String(lo));
      el.setAttribute('data-fs', String(lo));
    }
  }
  function measure(root) {
    const slide = root.firstElementChild;
    const o = slide.getBoundingClientRect();
    const out = [];
    const clipOf = new Map();
    for (const el of root.querySelectorAll('[data-id]')) {
      const b = el.getBoundingClientRect();
      const m = {id: el.getAttribute('data-id'), b: R(b, o)};
      // Clip rect from clipping ancestors (not the slide).
      let clip = null;
      for (let a = el.parentElement; a && a !== slide && a !== root; a = a.parentElement) {
        if (a.hasAttribute('data-clip')) {
          const ar = R(a.getBoundingClientRect(), o);
          clip = clip ? inter(clip, ar) : ar;
        }
      }
      if (clip) m.clip = clip;
      const tx = el.querySelector(':scope > .tx');
      if (tx) {
        // Line boxes of the characters themselves (not of the <p> blocks).
        const rects = [];
        const walker = document.createTreeWalker(tx, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        for (let tn = walker.nextNode(); tn; tn = walker.nextNode()) {
          if (!tn.data.trim()) continue;
          if (tn.parentElement && tn.parentElement.classList.contains('bu')) {
            // a bullet is drawn text too
          }
          range.selectNodeContents(tn);
          for (const r of range.getClientRects()) rects.push(r);
        }
        const vis = rects.filter(r => r.width > 0.5 && r.height > 0.5);
        if (vis.length) {
          let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
          for (const r of vis) { x0 = Math.min(x0, r.left); y0 = Math.min(y0, r.top); x1 = Math.max(x1, r.right); y1 = Math.max(y1, r.bottom); }
          m.ink = {x: x0 - o.left, y: y0 - o.top, width: x1 - x0, height: y1 - y0};
        }
        m.lines = lineCount(rects);
        // Overflow past the node's own box (insets included: text that
        // only reaches into an inset is still inside the shape), in the
        // box's unrotated layout axes.
        const ov = overflow(el, tx);
        m.ovY = ov.y;
        m.ovX = ov.x;
        if (el.hasAttribute('data-fs')) m.fs = parseFloat(el.getAttribute('data-fs'));
        m.text = tx.textContent.trim().length > 0;
        const runs = [];
        let minFont = Infinity;
        for (const sp of tx.querySelectorAll('span')) {
          if (!sp.textContent.trim() || sp.closest('.bu')) continue; // bullets (and their sized inner span) are not runs
          const s = getComputedStyle(sp);
          const size = parseFloat(s.fontSize);
          minFont = Math.min(minFont, size);
          runs.push({c: rgba(s.color), s: size, w: parseInt(s.fontWeight, 10) || 400});
        }
        if (minFont < Infinity) m.minFont = minFont;
        if (m.ink && runs.length) {
          // The glyph area of each line (up to 12 lines), slide px: the
          // renderer reads the pixels painted there with the text hidden
          // (hideText), so pictures, gradients and cell fills all count.
          m.lns = lineBoxes(rects).slice(0, 12).map(ln => ({x: ln.left - o.left, y: ln.top - o.top, width: ln.right - ln.left, height: ln.bottom - ln.top}));
          // Keep distinct runs only.
          const seen = new Set();
          m.runs = runs.filter(r => { const k = r.c.join() + '|' + r.s + '|' + r.w; if (seen.has(k)) return false; seen.add(k); return true; }).slice(0, 16);
        }
      }
      const img = el.querySelector(':scope > .il img');
      if (img) m.img = {nw: img.naturalWidth, nh: img.naturalHeight, fit: getComputedStyle(img).objectFit};
      if (el.classList.contains('math-error')) m.mathError = true;
      else if (el.hasAttribute('data-latex')) {
        const svg = el.querySelector(':scope > .mx svg');
        if (svg) m.ink = R(svg.getBoundingClientRect(), o);
      }
      out.push(m);
    }
    return {w: o.width, h: o.height, nodes: out};
  }
  // render sets the slide's DOM and returns its measurement; with
  // hideAfter it then hides the text (hideText) when some node has text
  // lines to judge, so the contrast backdrop needs no second call.
  async function render(html, hideAfter) {
    const root = document.getElementById('ace-root');
    root.classList.remove('ace-notext');
    root.innerHTML = html;
    const errors = [];
    for (const el of root.querySelectorAll('[data-latex]')) {
      const tgt = el.querySelector('.mx') || el;
      const latex = el.getAttribute('data-latex');
      const fail = (msg) => {
        el.classList.add('math-error');
        tgt.textContent = latex;
        errors.push({nodeId: el.getAttribute('data-id'), message: 'invalid LaTeX `' + latex + '`: ' + msg});
      };
      try {
        if (typeof MathJax === 'undefined' || !MathJax.tex2svg) throw new Error('MathJax is not loaded');
        // Display style when the node says so (scenegraph.Math.Display,
        // LaTeX \[...\]), inline style otherwise; measured in the node's
        // font size.
        // (tex2svg's own default is display style, so the option is set
        // either way.)
        const display = tgt.getAttribute('data-display') === '1';
        const opts = Object.assign(MathJax.getMetricsFor(tgt, display), {display});
        const out = MathJax.tex2svg(latex, opts);
        // MathJax reports TeX errors in the output, not by throwing: an
        // merror element carrying data-mjx-error.
        const bad = out.querySelector('[data-mjx-error]');
        if (bad) { fail(bad.getAttribute('data-mjx-error')); continue; }
        tgt.appendChild(out);
      } catch (e) {
        fail(String(e && e.message || e));
      }
    }
    const imgs = [...root.querySelectorAll('img')];
    await Promise.all(imgs.map(i => i.decode().catch(() => {
      const host = i.closest('[data-id]');
      errors.push({nodeId: host ? host.getAttribute('data-id') : '', message: 'image could not be decoded'});
    })));
    await document.fonts.ready;
    autofit(root);
    const m = measure(root);
    m.errors = errors;
    if (hideAfter && m.nodes.some(n => n.lns && n.lns.length)) hideText();
    return m;
  }
  // hideText makes every text of the slide transparent (glyphs, bullets,
  // underlines) while keeping its layout, so a screenshot shows what is
  // painted behind the text. The next render shows text again.
  function hideText() {
    document.getElementById('ace-root').classList.add('ace-notext');
    return true;
  }
  // put turns each [mime, base64] picture into a blob: URL of its bytes,
  // so that a slide's markup names a picture the page already holds
  // instead of carrying it again (pool.go blobMarkup); revoke frees them.
  function put(list) {
    return list.map(([type, b64]) => {
      const bin = atob(b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      return URL.createObjectURL(new Blob([bytes], {type}));
    });
  }
  function revoke(urls) {
    for (const u of urls) URL.revokeObjectURL(u);
    return true;
  }
  window.__ace = {render, hideText, put, revoke};
})();
