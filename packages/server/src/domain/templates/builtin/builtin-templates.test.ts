import { limits, locales } from '@gantry/contract';
import { describe, expect, it } from 'vitest';
import { builtinTemplates } from './index.js';

const slugs = builtinTemplates.map((t) => t.slug);

describe('built-in templates', () => {
  it('ship the eight promised ones, each once', () => {
    expect([...slugs].sort()).toEqual(
      ['construction', 'event', 'hiring', 'marketing-campaign', 'office-move', 'product-launch', 'software-release', 'website-redesign'].sort(),
    );
  });

  describe.each(builtinTemplates.map((t) => [t.slug, t] as const))('%s', (_slug, template) => {
    const refs = template.tasks.map((t) => t.ref);
    const parents = new Set(template.tasks.flatMap((t) => (t.parent ? [t.parent] : [])));

    it('is a real plan: phases before their tasks, durations on tasks only, milestones, links between its tasks without cycles', () => {
      expect(new Set(refs).size).toBe(refs.length);
      template.tasks.forEach((task, index) => {
        if (task.parent) expect(refs.indexOf(task.parent), `${task.ref}'s phase comes first`).toBeGreaterThanOrEqual(0);
        if (task.parent) expect(refs.indexOf(task.parent)).toBeLessThan(index);
        if (parents.has(task.ref)) expect(task.days, `${task.ref} is a phase`).toBeUndefined();
        else expect(Number.isInteger(task.days) && task.days! >= 0, `${task.ref} has working days`).toBe(true);
      });
      expect(parents.size).toBeGreaterThanOrEqual(3);
      expect(template.tasks.filter((t) => t.days === 0).length).toBeGreaterThanOrEqual(2);
      expect(template.tasks.length).toBeGreaterThanOrEqual(15);
      for (const link of template.links) {
        expect(refs).toContain(link.from);
        expect(refs).toContain(link.to);
        expect(link.from).not.toBe(link.to);
      }
      // Kahn's algorithm over the links: every task is reached, so there is no cycle.
      const incoming = new Map(refs.map((r) => [r, 0]));
      for (const link of template.links) incoming.set(link.to, incoming.get(link.to)! + 1);
      const ready = refs.filter((r) => incoming.get(r) === 0);
      let reached = 0;
      while (ready.length > 0) {
        const ref = ready.pop()!;
        reached++;
        for (const link of template.links.filter((l) => l.from === ref)) {
          incoming.set(link.to, incoming.get(link.to)! - 1);
          if (incoming.get(link.to) === 0) ready.push(link.to);
        }
      }
      expect(reached).toBe(refs.length);
    });

    it('has its texts in every language of the service', () => {
      expect(Object.keys(template.texts).sort()).toEqual([...locales].sort());
      for (const locale of locales) {
        const texts = template.texts[locale];
        expect(Object.keys(texts.tasks).sort(), locale).toEqual([...refs].sort());
        for (const text of [texts.name, texts.description, ...Object.values(texts.tasks)]) {
          expect(text.trim(), `${locale}: ${text}`).toBe(text);
          expect(text.length, `${locale}: ${text}`).toBeGreaterThan(0);
          expect(text.length).toBeLessThanOrEqual(limits.nameMaxLength);
        }
      }
    });

    it('is translated, not copied from English', () => {
      const english = template.texts.en;
      for (const locale of locales.filter((l) => l !== 'en')) {
        const texts = template.texts[locale];
        const same = refs.filter((ref) => texts.tasks[ref] === english.tasks[ref]).length;
        expect(texts.name, locale).not.toBe(english.name);
        expect(texts.description, locale).not.toBe(english.description);
        // A few names may be the same word (e.g. "Marketing", "Design"); most are not.
        expect(same / refs.length, `${locale}: ${same} of ${refs.length} task names are the English ones`).toBeLessThanOrEqual(0.2);
      }
    });
  });
});
