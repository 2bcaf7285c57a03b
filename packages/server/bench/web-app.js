#!/usr/bin/env node
// The web app on 10,000- and 50,000-task plans, in headless Chromium (Debian's, as the tests
// use): first render (from navigation to the chart's bars on screen, the plan fetched and
// laid out), frames per second while the chart scrolls down and sideways, and the time from
// a key press (indent, paste of 100 tasks, undo) to the chart showing the server's answer.
// Baselines from the same run: the same on a 10-task plan (20 tasks for the paste), and the
// frame rate of the same page left idle (the browser's own ceiling on this machine).
import { chromium } from 'playwright-core';
import { benchPassword, createPlan, median, planOf, withGantry } from './support.js';

const renders = Number(process.env.BENCH_WEB_RENDERS ?? 5);
const scrollSeconds = Number(process.env.BENCH_WEB_SCROLL_SECONDS ?? 3);
// Phases of 19 tasks and their summary in the big plan: 2,500 make 50,000 tasks.
const hugePhases = Number(process.env.BENCH_WEB_HUGE_PHASES ?? 2500);

/** Milliseconds from navigation start until the chart shows bars. */
async function firstRender(page, url) {
  await page.goto('about:blank');
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForSelector('.gantt-row .bar', { timeout: 60_000 });
  return page.evaluate(() => performance.now());
}

/** Frames per second for `seconds`, scrolling the chart by `pixelsPerFrame` each frame down (or sideways); 0: idle. */
function frameRate(page, seconds, pixelsPerFrame, sideways = false) {
  return page.evaluate(
    ({ seconds, pixelsPerFrame, sideways }) =>
      new Promise((resolve) => {
        const chart = document.querySelector('.gantt');
        const [position, size, client] = sideways ? ['scrollLeft', 'scrollWidth', 'clientWidth'] : ['scrollTop', 'scrollHeight', 'clientHeight'];
        let frames = 0;
        const started = performance.now();
        const step = (now) => {
          frames += 1;
          if (pixelsPerFrame > 0) chart[position] = chart[position] + pixelsPerFrame >= chart[size] - chart[client] ? 0 : chart[position] + pixelsPerFrame;
          if (now - started < seconds * 1000) requestAnimationFrame(step);
          else resolve(frames / ((now - started) / 1000));
        };
        requestAnimationFrame(step);
      }),
    { seconds, pixelsPerFrame, sideways },
  );
}

/** Milliseconds from a key press until the chart shows `settled` and every write has been answered. */
async function keyToAnswer(page, key, settled, argument) {
  const started = performance.now();
  await page.keyboard.press(key);
  await page.waitForFunction(settled, argument, { polling: 'raf', timeout: 60_000 });
  await page.locator('.edit-bar[aria-busy="false"]').waitFor({ timeout: 60_000 });
  return performance.now() - started;
}

const rowCount = () => Number(document.querySelector('[role="treegrid"]').getAttribute('aria-rowcount'));
const rowCountIs = (expected) => Number(document.querySelector('[role="treegrid"]').getAttribute('aria-rowcount')) === expected;

/**
 * On an open plan of phases: indent the second task of the first phase, fold five phases and
 * copy them (100 tasks), paste them after the fifth, and undo the paste; each timed from the
 * key press to the chart showing the server's answer.
 */
async function editTimes(page, url) {
  await page.goto(url);
  await page.waitForSelector('.gantt-row .bar', { timeout: 60_000 });
  const row = (name) => page.getByRole('row', { name: new RegExp(`^\\S+-\\d+ ${name.replace('.', '\\.')}$`) });
  await row('Task 1.2').click();
  const indentMs = await keyToAnswer(page, 'Alt+Shift+ArrowRight', () => document.querySelector('.gantt-row.focused')?.getAttribute('aria-level') === '3');
  for (let phase = 1; phase <= 5; phase++) {
    await row(`Phase ${phase}`).click();
    await page.keyboard.press('ArrowLeft');
  }
  await row('Phase 1').click();
  await row('Phase 5').click({ modifiers: ['Shift'] });
  await page.keyboard.press('Control+c');
  const before = await page.evaluate(rowCount);
  const pasteMs = await keyToAnswer(page, 'Control+v', rowCountIs, before + 100);
  const undoMs = await keyToAnswer(page, 'Control+z', rowCountIs, before);
  return { indentMs, pasteMs, undoMs };
}

// The bench's writes (building 50,000 tasks, then the edits) run past the API's 60 writes a minute.
const figures = await withGantry(undefined, async (gantry) => {
  const big = await createPlan(gantry, 'Big', planOf(500, 19));
  const huge = await createPlan(gantry, 'Huge', planOf(hugePhases, 19));
  const small = await createPlan(gantry, 'Small', planOf(1, 9));
  const pasteBase = await createPlan(gantry, 'Small phases', planOf(6, 19));
  const signIn = await fetch(`${gantry.base}/api/auth/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password: benchPassword }) });
  if (!signIn.ok) throw new Error(`sign-in → ${signIn.status} ${await signIn.text()}`);
  const [name, value] = signIn.headers.getSetCookie()[0].split(';')[0].split('=');
  // The browser is at the server's own address (BASE_URL), from which alone a session may write.
  const base = gantry.base.replace('//127.0.0.1:', '//localhost:');

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addCookies([{ name, value, url: base }]);
    const page = await context.newPage();
    // Alternate small and big so that machine noise hits both alike (the first of each warms up).
    const bigMs = [];
    const hugeMs = [];
    const smallMs = [];
    for (let run = 0; run <= renders; run++) {
      const smallRun = await firstRender(page, `${base}/projects/${small.projectId}`);
      const bigRun = await firstRender(page, `${base}/projects/${big.projectId}`);
      const hugeRun = await firstRender(page, `${base}/projects/${huge.projectId}`);
      if (run === 0) continue;
      smallMs.push(smallRun);
      bigMs.push(bigRun);
      hugeMs.push(hugeRun);
    }
    const rows = await page.locator('.gantt-row').count();
    const idleFps = await frameRate(page, scrollSeconds, 0);
    const scrollFps50k = await frameRate(page, scrollSeconds, 3 * 32);
    const hScrollFps50k = await frameRate(page, scrollSeconds, 40, true);
    await firstRender(page, `${base}/projects/${big.projectId}`);
    const scrollFps = await frameRate(page, scrollSeconds, 3 * 32);
    const smallEdits = await editTimes(page, `${base}/projects/${pasteBase.projectId}`);
    const hugeEdits = await editTimes(page, `${base}/projects/${huge.projectId}`);
    const result = { render: median(bigMs), hugeRender: median(hugeMs), smallRender: median(smallMs), idleFps, scrollFps, scrollFps50k, hScrollFps50k, rows, smallEdits, hugeEdits };
    console.log(
      `web app: 10,000-task plan first render ${result.render.toFixed(0)} ms, 50,000 ${result.hugeRender.toFixed(0)} ms (10-task plan ${result.smallRender.toFixed(0)} ms, median of ${renders}); ` +
        `${rows} rows in the page; scrolling 3 rows a frame ${scrollFps.toFixed(1)} frames/s at 10,000, ${scrollFps50k.toFixed(1)} at 50,000, sideways ${hScrollFps50k.toFixed(1)} (idle page ${idleFps.toFixed(1)}); ` +
        `key to answer at 50,000 (at 120): indent ${hugeEdits.indentMs.toFixed(0)} ms (${smallEdits.indentMs.toFixed(0)}), paste of 100 ${hugeEdits.pasteMs.toFixed(0)} ms (${smallEdits.pasteMs.toFixed(0)}), undo ${hugeEdits.undoMs.toFixed(0)} ms (${smallEdits.undoMs.toFixed(0)})`,
    );
    return result;
  } finally {
    await browser.close();
  }
}, { env: { GANTRY_RATE_LIMIT_WRITES: '100000' } });

const round = (value) => Number(value.toFixed(2));
console.log(
  JSON.stringify({
    webFirstRender10kMs: round(figures.render),
    webFirstRender10kOverSmall: round(figures.render / figures.smallRender),
    webScrollFps10k: round(figures.scrollFps),
    webScrollFpsOverIdle: round(figures.scrollFps / figures.idleFps),
    webFirstRender50kMs: round(figures.hugeRender),
    webFirstRender50kOverSmall: round(figures.hugeRender / figures.smallRender),
    webScrollFps50k: round(figures.scrollFps50k),
    webHScrollFps50k: round(figures.hScrollFps50k),
    webIndent50kMs: round(figures.hugeEdits.indentMs),
    webPaste100In50kMs: round(figures.hugeEdits.pasteMs),
    webUndo50kMs: round(figures.hugeEdits.undoMs),
    webIndent50kOverSmall: round(figures.hugeEdits.indentMs / figures.smallEdits.indentMs),
    webPaste100In50kOverSmall: round(figures.hugeEdits.pasteMs / figures.smallEdits.pasteMs),
    webUndo50kOverSmall: round(figures.hugeEdits.undoMs / figures.smallEdits.undoMs),
  }),
);
