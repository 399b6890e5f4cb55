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

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!data) return;
  let div = parentElement.querySelector('div.layerlab-chart');
  if (!div) {
    div = document.createElement('div');
    div.className = 'layerlab-chart';
    parentElement.appendChild(div);
  }
  let sent = typeof data === 'string' ? data : JSON.stringify(data);
  const t = theme(parentElement);
  const look = JSON.stringify(t);
  if (sent.startsWith('{"same"')) {
    // "The figure you drew last time": nothing was re-sent. A chart that does not hold it (mounted
    // afresh, or its figure lost on the way) asks for it, and the next run sends it whole.
    const id = JSON.parse(sent).same;
    if (div.__id !== id || !div.__sent) {
      window.__layerLabAsked = (window.__layerLabAsked || 0) + 1;  // counted for the browser tests
      div.__sent = null;  // whatever it shows, the figure that comes next is drawn
      setTimeout(() => setTriggerValue('missing', id), 0);
      return;
    }
    if (div.__look === look) return;
    sent = div.__sent;  // the same figure in a new theme: redraw it from what is kept
    div.__sent = null;
  }
  if (div.__sent === sent && div.__look === look) return;  // the same figure in the same theme
  div.__sent = sent;
  div.__look = look;
  div.dataset.pending = '1';  // until this figure is on screen (the browser tests wait for it)
  const { id, fig, config } = JSON.parse(recolor(sent, t));
  div.__id = id;
  div.__figures = (div.__figures || 0) + 1;  // figures this chart was given (the browser tests read it)
  themed(fig, t);
  loadPlotly().then((Plotly) => {
    if (div.__sent !== sent) return;  // a newer figure came while plotly.js loaded
    const first = !div.__drawn;
    div.__drawn = true;
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
          Plotly.Plots.resize(div);
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
