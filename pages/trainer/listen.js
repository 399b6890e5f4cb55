// Listen: the trainer's map (or its loss curves) as sound, Web Audio only (pages/trainer/listen.py).
// Nothing sounds until the student presses Listen (a click, Enter or Space on the button): only then is
// an AudioContext made, inside that gesture. Escape, anywhere on the page, or Stop ends the sound and
// suspends the context. The notes come from lib/sonify.py; this file only schedules them.
const WAVES = ['sine', 'square', 'sawtooth', 'triangle', 'organ'];
const LOUD = [0.9, 0.3, 0.3, 0.8, 0.6];   // square and sawtooth sound louder at the same gain
const S = window.__layerLabListen || (window.__layerLabListen = {
  ctx: null, playing: false, waiting: false, nodes: [], done: null, played: 0, ask: null, box: null,
});

function status(text) {
  if (S.box) S.box.querySelector('.layerlab-listen-said').textContent = text;
}

function label() {
  if (!S.box) return;
  const b = S.box.querySelector('button');
  b.textContent = S.playing || S.waiting ? 'Stop' : 'Listen';
  b.setAttribute('aria-pressed', S.playing || S.waiting ? 'true' : 'false');
}

function stop(said) {
  const was = S.playing || S.waiting;
  S.waiting = false;
  S.playing = false;
  clearTimeout(S.done);
  clearTimeout(S.ask);
  for (const n of S.nodes) { try { n.stop(); } catch (e) { /* not started yet */ } }
  S.nodes = [];
  if (S.ctx && S.ctx.state === 'running') S.ctx.suspend();
  label();
  if (was) status(said || 'Stopped.');
}

function wave(ctx, osc, w) {
  if (WAVES[w] !== 'organ') { osc.type = WAVES[w] || 'sine'; return; }
  // the fifth class: a tone of its own (the first, second and fourth harmonics, as an organ's stops)
  osc.setPeriodicWave(ctx.createPeriodicWave(new Float32Array([0, 0, 0, 0, 0]),
                                             new Float32Array([0, 1, 0.6, 0, 0.4])));
}

function play(sound) {
  const ctx = S.ctx;
  const t0 = ctx.currentTime + 0.08;
  const out = ctx.createGain();
  out.gain.value = 0.2;
  out.connect(ctx.destination);
  const note = sound.note;
  for (let i = 0; i < sound.t.length; i++) {
    const at = t0 + sound.t[i];
    const osc = ctx.createOscillator();
    wave(ctx, osc, sound.w[i]);
    osc.frequency.value = sound.f[i];
    const env = ctx.createGain();
    env.gain.setValueAtTime(0, at);
    env.gain.linearRampToValueAtTime(LOUD[sound.w[i]] || 0.6, at + 0.008);
    env.gain.exponentialRampToValueAtTime(0.001, at + note);
    const pan = ctx.createStereoPanner();
    pan.pan.value = sound.p[i];
    osc.connect(env).connect(pan).connect(out);
    osc.start(at);
    osc.stop(at + note + 0.01);
    S.nodes.push(osc);
  }
  // a click where the class changes: 6 ms of noise
  const noise = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * 0.006), ctx.sampleRate);
  const d = noise.getChannelData(0);
  for (let j = 0; j < d.length; j++) d[j] = (Math.random() * 2 - 1) * (1 - j / d.length);
  for (const c of sound.clicks) {
    const src = ctx.createBufferSource();
    src.buffer = noise;
    src.connect(out);
    src.start(t0 + c);
    S.nodes.push(src);
  }
  S.playing = true;
  label();
  status('Playing ' + sound.what + ' (' + Math.round(sound.length) + ' s). Escape or Stop ends it.');
  S.done = setTimeout(() => stop('Done.'), (sound.length + 0.4) * 1000);
}

function press() {
  if (S.playing || S.waiting) { stop(); return; }
  // Made (or woken) inside the gesture: the browser lets a page sound only after one.
  if (!S.ctx || S.ctx.state === 'closed') S.ctx = new AudioContext();
  S.ctx.resume();
  S.waiting = true;
  label();
  status('Getting the sound...');
  const ask = (n) => {
    if (!S.waiting) return;
    S.set('listen', Date.now());       // the page answers with the notes (a rerun of the live part)
    if (n < 3) S.ask = setTimeout(() => ask(n + 1), 3000);
    else S.ask = setTimeout(() => stop('The sound did not come: press Listen again.'), 3000);
  };
  ask(0);
}

const CSS = `
div.layerlab-listen { display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; }
div.layerlab-listen button { font: inherit; color: inherit; background: transparent; cursor: pointer;
  border: 1px solid currentColor; border-radius: 0.5rem; padding: 0.375rem 1rem; min-height: 2.5rem; }
div.layerlab-listen button:focus-visible { outline: 3px solid #1c83e1; outline-offset: 2px; }`;

export default function ({ data, parentElement, setTriggerValue }) {
  if (!document.getElementById('layerlab-listen-css')) {
    const style = document.createElement('style');
    style.id = 'layerlab-listen-css';
    style.textContent = CSS;
    document.head.appendChild(style);
  }
  let box = parentElement.querySelector('div.layerlab-listen');
  if (!box) {
    box = document.createElement('div');
    box.className = 'layerlab-listen';
    const b = document.createElement('button');
    b.type = 'button';
    b.addEventListener('click', press);
    const said = document.createElement('span');
    said.className = 'layerlab-listen-said';
    said.setAttribute('role', 'status');
    box.append(b, said);
    parentElement.appendChild(box);
  }
  S.box = box;
  S.set = setTriggerValue;
  label();
  if (!window.__layerLabListenKeys) {
    window.__layerLabListenKeys = true;
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && (S.playing || S.waiting)) stop();
    }, true);
  }
  if (data && data.sound && S.waiting && data.play !== S.played) {
    S.played = data.play;
    S.waiting = false;
    clearTimeout(S.ask);
    play(data.sound);
  }
}
