// ui/inplace.py's chart: served from static/ (copied there with plotly.js), loaded once per browser by
// the component's few lines (_LOADER in ui/inplace.py), so no chart element carries this code.
const SRC = new URL('./plotly.min.js?v=__VERSION__', import.meta.url).href;

function loadPlotly() {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window.__layerLabPlotly) {
    window.__layerLabPlotly = new Promise((ok, bad) => {
      const s = document.createElement('script');
      s.src = SRC; s.async = true;
      s.onload = () => ok(window.Plotly);
      s.onerror = () => { window.__layerLabPlotly = null; bad(new Error('plotly.js did not load')); };
      document.head.appendChild(s);
    });
  }
  return window.__layerLabPlotly;
}

function theme(el) {
  const cs = getComputedStyle(el);
  const v = (n, d) => (cs.getPropertyValue(n) || '').trim() || d;
  const list = (n) => v(n, '').split(',').map((c) => c.trim()).filter(Boolean);
  const text = v('--st-text-color', '#31333F');
  return {
    text, heading: v('--st-heading-color', text), gray: v('--st-gray-text-color', text),
    bg: v('--st-background-color', '#ffffff'), bg2: v('--st-secondary-background-color', '#f0f2f6'),
    grid: v('--st-border-color-light', 'rgba(49, 51, 63, 0.1)'),
    line: v('--st-border-color', 'rgba(49, 51, 63, 0.2)'),
    font: v('--st-font', '"Source Sans", sans-serif'),
    green: v('--st-green-color', '#21c354'), red: v('--st-red-color', '#ff2b2b'),
    blue: v('--st-blue-color', '#1c83e1'),
    cat: list('--st-chart-categorical-colors'), seq: list('--st-chart-sequential-colors'),
    div: list('--st-chart-diverging-colors'),
  };
}

// Streamlit's plotly template writes placeholder colours #000001-#000040; swap in the theme's.
function recolor(json, t) {
  const fixed = {32: t.green, 33: t.red, 34: t.blue, 35: t.grid, 36: t.gray, 37: t.text, 38: t.bg,
                 39: t.grid, 40: t.bg2};
  return json.replace(/#0000([0-4][0-9])/g, (m, d) => {
    const i = Number(d);
    if (fixed[i]) return fixed[i];
    const pick = (arr, j) => (arr.length ? arr[Math.min(j, arr.length - 1)] : m);
    if (i >= 1 && i <= 10) return pick(t.cat, i - 1);
    if (i >= 11 && i <= 20) return pick(t.seq, i - 11);
    if (i >= 21 && i <= 31) return pick(t.div, i - 21);
    return m;
  }).replaceAll('"Source Sans Pro", sans-serif', t.font.replaceAll('"', '\\"'));
}

function deepDefaults(target, defaults) {
  for (const [k, d] of Object.entries(defaults)) {
    const have = target[k];
    if (d && typeof d === 'object' && !Array.isArray(d)) {
      if (!have || typeof have !== 'object') target[k] = {};
      deepDefaults(target[k], d);
    } else if (have === undefined) {
      target[k] = d;
    }
  }
  return target;
}

// What st.plotly_chart's page adds to every figure's layout (its theme), under what the figure says.
function themed(fig, t) {
  const layout = fig.layout || (fig.layout = {});
  const axis = (x) => ({
    gridcolor: t.grid, zerolinecolor: t.grid, tickcolor: t.grid, linecolor: t.line,
    tickfont: {color: t.gray, size: 12}, title: {font: {color: t.gray, size: 14}},
    automargin: true, ...(x ? {showgrid: false, zeroline: false} : {}),
  });
  const base = {
    font: {color: t.gray, family: t.font, size: 12},
    title: {font: {family: t.font, size: 16, color: t.heading}, x: 0, xanchor: 'left'},
    legend: {font: {size: 12, color: t.text}, title: {font: {size: 12, color: t.gray}},
             bordercolor: 'rgba(0,0,0,0)'},
    paper_bgcolor: t.bg, plot_bgcolor: t.bg,
    hoverlabel: {bgcolor: t.bg, bordercolor: t.line, font: {color: t.text, family: t.font, size: 12}},
  };
  for (const k of Object.keys(layout)) {
    if (/^xaxis\d*$/.test(k)) deepDefaults(layout[k], axis(true));
    if (/^yaxis\d*$/.test(k)) deepDefaults(layout[k], axis(false));
  }
  if (!Object.keys(layout).some((k) => /^xaxis\d*$/.test(k))) layout.xaxis = axis(true);
  if (!Object.keys(layout).some((k) => /^yaxis\d*$/.test(k))) layout.yaxis = axis(false);
  if (typeof layout.title === 'string') layout.title = {text: layout.title};
  if (layout.title && layout.title.text && !String(layout.title.text).startsWith('<b>')) {
    layout.title.text = '<b>' + layout.title.text + '</b>';
  }
  deepDefaults(layout, base);
  return fig;
}

// The room view (ui/room.py): every font size of the figure, the theme's defaults above included,
// `s` times as large (font, tickfont, textfont, ... wherever plotly has one).
function bigger(fig, s) {
  const walk = (o) => {
    if (!o || typeof o !== 'object' || ArrayBuffer.isView(o)) return;
    if (Array.isArray(o)) { if (o.length && typeof o[0] === 'object') o.forEach(walk); return; }
    for (const [k, v] of Object.entries(o)) {
      if (/font$/i.test(k) && v && typeof v === 'object') {
        if (typeof v.size === 'number') v.size = Math.round(v.size * s);
        else if (Array.isArray(v.size)) v.size = v.size.map((x) => (typeof x === 'number' ? Math.round(x * s) : x));
      } else walk(v);
    }
  };
  walk(fig.layout);
  walk(fig.data);
  const u = fig.layout && fig.layout.uniformtext;  // text a box cannot hold at this size is hidden
  if (u && typeof u.minsize === 'number') u.minsize = Math.round(u.minsize * s);
}


// A live tick that changes only the numbers of heatmaps: paint them into the pictures plotly drew.
// Plotly.react would redo every default, axis, label and trace of the figure (15-20 ms a map in the
// page's main thread, most of a playing trainer's redraw); a 100 x 100 picture costs about 1 ms.
// Only for what plotly itself draws as one pixel per cell (zsmooth false, no gaps: its "pixelated"
// image), with fixed zmin/zmax and no hover (a hover would read plotly's old numbers); anything else
// that differs, and the figure goes through Plotly.react as before.
const BDATA = /"bdata": ?"[^"]*"|"id": ?"[^"]*"/g;
const DTYPES = {u1: Uint8Array, i1: Int8Array, u2: Uint16Array, i2: Int16Array, u4: Uint32Array,
                i4: Int32Array, f4: Float32Array, f8: Float64Array};

function withoutNumbers(sent) { return sent.replace(BDATA, ''); }

function bdatas(obj, out = []) {
  if (obj && typeof obj === 'object' && !ArrayBuffer.isView(obj)) {
    if (typeof obj.bdata === 'string') out.push(obj.bdata);
    else for (const [k, v] of Object.entries(obj)) if (k[0] !== '_') bdatas(v, out);
  }
  return out;
}

function decode(spec) {
  const T = DTYPES[spec.dtype];
  if (!T || typeof spec.bdata !== 'string') return null;
  const bin = atob(spec.bdata);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const shape = String(spec.shape || '').split(',').map(Number);
  return {v: new T(bytes.buffer), rows: shape[0], cols: shape[1]};
}

let ink = null;
function rgba(color) {
  ink = ink || document.createElement('canvas').getContext('2d');
  ink.fillStyle = '#000'; ink.fillStyle = color;
  const c = ink.fillStyle;
  if (c[0] === '#') return [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)).concat(1);
  const m = c.match(/[\d.]+/g).map(Number);
  return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
}

function paintable(gd, i, trace) {
  const full = gd._fullData && gd._fullData[i];
  if (!full || full.type !== 'heatmap' || full.zsmooth || full.zauto || full.xgap || full.ygap) return null;
  if (full.hoverinfo !== 'skip' && full.hoverinfo !== 'none') return null;
  if (!(trace.dx > 0) || !(trace.dy > 0)) return null;
  // The trace's picture: plotly's heatmap group, bound (d3) to the trace's calcdata.
  const group = [...gd.querySelectorAll('g.hm')].find((g) => {
    const cd = g.__data__;
    return cd && cd[0] && cd[0].trace && cd[0].trace.uid === full.uid;
  });
  const img = group && group.querySelector('image');
  if (!img || !String(img.getAttribute('style')).includes('pixelated')) return null;
  const xa = gd._fullLayout[(full.xaxis || 'x').replace('x', 'xaxis')];
  const ya = gd._fullLayout[(full.yaxis || 'y').replace('y', 'yaxis')];
  if (!xa || !ya || !xa.range || !ya.range) return null;
  return {full, img, xrev: xa.range[0] > xa.range[1], yrev: !(ya.range[0] > ya.range[1])};
}

function paint(target, z) {
  const {full, img, xrev, yrev} = target;
  const {v, rows, cols} = z;
  if (!(rows > 0 && cols > 0) || v.length !== rows * cols) return false;
  const stops = full.colorscale.map(([p, c]) => [full.zmin + p * (full.zmax - full.zmin), rgba(c)]);
  const canvas = document.createElement('canvas');
  canvas.width = cols; canvas.height = rows;
  const ctx = canvas.getContext('2d');
  const im = ctx.createImageData(cols, rows);
  const px = im.data;
  for (let r = 0; r < rows; r++) {
    const y = yrev ? rows - 1 - r : r;
    for (let c = 0; c < cols; c++) {
      const val = v[r * cols + c];
      let k = 1;
      while (k < stops.length - 1 && val > stops[k][0]) k++;
      const [z0, c0] = stops[k - 1], [z1, c1] = stops[k];
      const f = z1 > z0 ? Math.min(1, Math.max(0, (val - z0) / (z1 - z0))) : 0;
      const o = (y * cols + (xrev ? cols - 1 - c : c)) * 4;
      px[o] = Math.round(c0[0] + f * (c1[0] - c0[0]));
      px[o + 1] = Math.round(c0[1] + f * (c1[1] - c0[1]));
      px[o + 2] = Math.round(c0[2] + f * (c1[2] - c0[2]));
      px[o + 3] = Math.round(255 * (c0[3] + f * (c1[3] - c0[3])));
    }
  }
  ctx.putImageData(im, 0, 0);
  img.setAttribute('href', canvas.toDataURL('image/png'));
  return true;
}

// The figure drawn last and this one differ only in heatmap numbers that can be painted: paint them
// and return true; otherwise change nothing and return false (the caller then calls Plotly.react).
function repaint(div, fig) {
  const gd = div, before = div.__fig;
  if (!before || !gd._fullData || !fig.data || fig.data.length !== before.data.length) return false;
  const targets = [];
  const others = (t) => bdatas({...t, z: null});  // the trace's other typed arrays
  for (let i = 0; i < fig.data.length; i++) {
    const a = fig.data[i], b = before.data[i];
    const za = a.z && a.z.bdata, zb = b.z && b.z.bdata;
    const ra = others(a), rb = others(b);
    if (ra.length !== rb.length || ra.some((x, j) => x !== rb[j])) return false;
    if (za === zb) continue;
    const target = za && zb ? paintable(gd, i, a) : null;
    const z = target && decode(a.z);
    if (!z) return false;
    targets.push([target, z]);
  }
  if (!targets.length) return false;
  for (const [target, z] of targets) if (!paint(target, z)) return false;
  // gd.data keeps the numbers plotly computed from, so its next Plotly.react sees them changed and
  // computes afresh; until then only the picture is newer than plotly's state (see the resize below).
  div.__stale = true;
  return true;
}

const UTF8 = new TextDecoder();

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!data) return;
  let div = parentElement.querySelector('div.layerlab-chart');
  if (!div) {
    div = document.createElement('div');
    div.className = 'layerlab-chart';
    parentElement.appendChild(div);
  }
  // The figure's JSON comes as its UTF-8 bytes (ui/inplace.py says why).
  let sent = UTF8.decode(data);
  const t = theme(parentElement);
  const look = JSON.stringify(t);
  if (sent.startsWith('{"same"')) {
    // "The figure you drew last time": nothing was re-sent. A chart that does not hold it (mounted
    // afresh, or its figure lost on the way) asks for it, and the next run sends it whole.
    const id = JSON.parse(sent).same;
    if (div.__id !== id || !div.__sent) {
      div.__sent = null;  // whatever it shows, the figure that comes next is drawn
      // Ask now, and again every 2 s (five times at most) while no figure has come: the rerun a trigger
      // starts can be lost (seen once in CI, a student's /trainer just after the join), and a chart
      // left empty is the one thing this must never do.
      const asking = div.__asking = {};
      const ask = (n) => setTimeout(() => {
        if (div.__asking !== asking || div.__sent || !div.isConnected) return;
        window.__layerLabAsked = (window.__layerLabAsked || 0) + 1;  // counted for the browser tests
        setTriggerValue('missing', id);
        if (n < 5) ask(n + 1);
      }, n ? 2000 : 0);
      ask(0);
      return;
    }
    if (div.__look === look) return;
    sent = div.__sent;  // the same figure in a new theme: redraw it from what is kept
    div.__sent = null;
  }
  if (div.__sent === sent && div.__look === look) return;  // the same figure in the same theme
  div.__sent = sent;
  div.__asking = null;  // a figure came: stop asking
  div.__look = look;
  div.dataset.pending = '1';  // until this figure is on screen (the browser tests wait for it)
  const { id, fig, config, scale, name } = JSON.parse(recolor(sent, t));
  div.__id = id;
  // Its accessible name (ui/charts.py's show: the title, or a name given): a screen reader meets a
  // figure called by what it shows. A figure, not an image: an image's children are presentational,
  // and plotly's mode bar and drag areas inside it are controls (axe: nested-interactive, serious).
  div.setAttribute('role', 'figure');
  div.setAttribute('aria-label', name || (fig.layout && fig.layout.title && fig.layout.title.text) || 'Chart');
  div.__figures = (div.__figures || 0) + 1;  // figures this chart was given (the browser tests read it)
  themed(fig, t);
  if (scale && scale !== 1) bigger(fig, scale);  // the room view (ui/room.py)
  const rest = look + withoutNumbers(sent);
  loadPlotly().then((Plotly) => {
    if (div.__sent !== sent) return;  // a newer figure came while plotly.js loaded
    const first = !div.__drawn;
    div.__drawn = true;
    const before = div.__rest;
    div.__rest = rest;
    if (!first && before === rest && repaint(div, fig)) {
      div.__fig = fig;
      div.__painted = (div.__painted || 0) + 1;  // redraws done without plotly (the browser tests read it)
      delete div.dataset.pending;
      return;
    }
    div.__fig = fig;
    div.__stale = false;
    return Plotly.react(div, fig.data || [], fig.layout, {responsive: true, ...config}).then(() => {
      if (div.__sent === sent) delete div.dataset.pending;
      if (!first) return;
      if (window.ResizeObserver) {
        // Only a new width redraws (a sidebar opened, a phone turned): a page's reruns change heights
        // around the chart, and a redraw of every chart for each would cost more than the change.
        let width = div.clientWidth;
        const ro = new ResizeObserver(() => {
          const w = div.clientWidth;
          if (!div.isConnected || !w || Math.abs(w - width) < 1) return;
          width = w;
          if (!div.__stale) { Plotly.Plots.resize(div); return; }
          // Painted pictures are newer than plotly's numbers: a plain resize would redraw the old ones.
          div.__stale = false;
          const f = div.__fig;
          Plotly.react(div, f.data || [], f.layout, {responsive: true, ...config})
            .then(() => Plotly.Plots.resize(div));
        });
        ro.observe(parentElement instanceof Element ? parentElement : div);
        div.__ro = ro;
      }
    });
  }).catch((err) => {
    delete div.dataset.pending;
    div.textContent = 'This chart could not be drawn: ' + err.message + '. Reload the page to try again.';
  });
  return () => { if (div.__ro) div.__ro.disconnect(); };
}
