#!/usr/bin/env node
// The web app on a 10,000-task plan, in headless Chromium (Debian's, as the tests use):
// first render (from navigation to the chart's bars on screen, the plan fetched and laid
// out) and frames per second while the chart scrolls. Baselines from the same run: the
// first render of a 10-task plan, and the frame rate of the same page left idle (the
// browser's own ceiling on this machine).
import { chromium } from 'playwright-core';
import { benchPassword, createPlan, median, planOf, withGantry } from './support.js';

const renders = Number(process.env.BENCH_WEB_RENDERS ?? 5);
const scrollSeconds = Number(process.env.BENCH_WEB_SCROLL_SECONDS ?? 3);

/** Milliseconds from navigation start until the chart shows bars. */
async function firstRender(page, url) {
  await page.goto('about:blank');
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForSelector('.gantt-row .bar', { timeout: 60_000 });
  return page.evaluate(() => performance.now());
}

/** Frames per second for `seconds`, scrolling the chart by `rowsPerFrame` rows each frame (0: idle). */
function frameRate(page, seconds, rowsPerFrame) {
  return page.evaluate(
    ({ seconds, rowsPerFrame }) =>
      new Promise((resolve) => {
        const chart = document.querySelector('.gantt');
        let frames = 0;
        const started = performance.now();
        const step = (now) => {
          frames += 1;
          if (rowsPerFrame > 0) {
            chart.scrollTop = chart.scrollTop + rowsPerFrame * 32 >= chart.scrollHeight - chart.clientHeight ? 0 : chart.scrollTop + rowsPerFrame * 32;
          }
          if (now - started < seconds * 1000) requestAnimationFrame(step);
          else resolve(frames / ((now - started) / 1000));
        };
        requestAnimationFrame(step);
      }),
    { seconds, rowsPerFrame },
  );
}

const figures = await withGantry(undefined, async (gantry) => {
  const big = await createPlan(gantry, 'Big', planOf(500, 19));
  const small = await createPlan(gantry, 'Small', planOf(1, 9));
  const signIn = await fetch(`${gantry.base}/api/auth/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password: benchPassword }) });
  if (!signIn.ok) throw new Error(`sign-in → ${signIn.status} ${await signIn.text()}`);
  const [name, value] = signIn.headers.getSetCookie()[0].split(';')[0].split('=');

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addCookies([{ name, value, url: gantry.base }]);
    const page = await context.newPage();
    // Alternate small and big so that machine noise hits both alike (the first of each warms up).
    const bigMs = [];
    const smallMs = [];
    for (let run = 0; run <= renders; run++) {
      const smallRun = await firstRender(page, `${gantry.base}/projects/${small.projectId}`);
      const bigRun = await firstRender(page, `${gantry.base}/projects/${big.projectId}`);
      if (run === 0) continue;
      smallMs.push(smallRun);
      bigMs.push(bigRun);
    }
    const rows = await page.locator('.gantt-row').count();
    const idleFps = await frameRate(page, scrollSeconds, 0);
    const scrollFps = await frameRate(page, scrollSeconds, 3);
    const result = { render: median(bigMs), smallRender: median(smallMs), idleFps, scrollFps, rows };
    console.log(
      `web app: 10,000-task plan first render ${result.render.toFixed(0)} ms (10-task plan ${result.smallRender.toFixed(0)} ms, median of ${renders}); ` +
        `${rows} rows in the page; scrolling 3 rows a frame ${scrollFps.toFixed(1)} frames/s (idle page ${idleFps.toFixed(1)})`,
    );
    return result;
  } finally {
    await browser.close();
  }
});

const round = (value) => Number(value.toFixed(2));
console.log(
  JSON.stringify({
    webFirstRender10kMs: round(figures.render),
    webFirstRender10kOverSmall: round(figures.render / figures.smallRender),
    webScrollFps10k: round(figures.scrollFps),
    webScrollFpsOverIdle: round(figures.scrollFps / figures.idleFps),
  }),
);
