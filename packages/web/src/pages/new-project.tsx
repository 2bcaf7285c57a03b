import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { Locale } from '@gantry/contract/limits';
import { ApiError, call, describeError } from '../client';
import { Alert, Field } from '../components';
import { browserLocale, counted, knownLocale, localeNames } from '../format';
import { useSession } from '../session';
import type { ImportReport, Project, Template } from '../types';

type Source = 'blank' | 'template' | 'import';

/**
 * Starting a project: blank, from a template (its task names in the person's language,
 * its working hours in their time zone) or from a Microsoft Project file.
 */
export function NewProject() {
  const navigate = useNavigate();
  const { user } = useSession();
  const [source, setSource] = useState<Source>('blank');
  const [name, setName] = useState('');
  const [startDate, setStartDate] = useState(() => new Date().toISOString().slice(0, 10));
  const [locale, setLocale] = useState<Locale>(() => knownLocale(user?.locale) ?? browserLocale());
  // Empty: the working hours are in UTC, the zone the chart shows dates in.
  const [tz, setTz] = useState('');
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [templateId, setTemplateId] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [report, setReport] = useState<{ project: Project; report: ImportReport } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (source !== 'template') return;
    call('listTemplates', { query: { locale } }).then(
      (answer) => {
        setTemplates(answer.templates);
        setTemplateId((current) => current || (answer.templates[0]?.id ?? ''));
      },
      (caught: unknown) => setFailure(describeError(caught)),
    );
  }, [source, locale]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setFailure(null);
    setBusy(true);
    try {
      const named = name.trim() ? { name: name.trim() } : {};
      const zone = tz.trim();
      if (source === 'blank') {
        const { project } = await call('createProject', { body: { name, startDate, ...(zone ? { timeZone: zone } : {}) } });
        void navigate(`/projects/${project.id}`);
      } else if (source === 'template') {
        const { project } = await call('createProjectFromTemplate', { body: { templateId, startDate, locale, ...(zone ? { tz: zone } : {}), ...named } });
        void navigate(`/projects/${project.id}`);
      } else if (file) {
        const imported = await call('importProject', { body: { format: 'mspdi', data: await file.text(), ...named } });
        const { dropped, approximated } = imported.report;
        if (dropped.length + approximated.length === 0) void navigate(`/projects/${imported.project.id}`);
        else setReport(imported);
      }
    } catch (caught) {
      if (caught instanceof ApiError) setError(caught);
      else setFailure(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  const template = templates?.find((t) => t.id === templateId);
  return (
    <section aria-label="New project" className="new-project">
      <form className="inline-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="new-project-source">Plan</label>
          <select id="new-project-source" value={source} onChange={(e) => setSource(e.target.value as Source)}>
            <option value="blank">Blank</option>
            <option value="template">From a template</option>
            <option value="import">From a Microsoft Project file (.xml)</option>
          </select>
        </div>
        {source === 'template' && (
          <>
            <div className="field">
              <label htmlFor="new-project-template">Template</label>
              <select id="new-project-template" value={templateId} onChange={(e) => setTemplateId(e.target.value)} disabled={!templates}>
                {templates?.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name} ({counted(t.taskCount, 'task')}, {counted(t.durationDays, 'day')})
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="new-project-locale">Language</label>
              <select id="new-project-locale" value={locale} onChange={(e) => setLocale(e.target.value as Locale)}>
                {localeNames().map(({ locale: code, name: language }) => (
                  <option key={code} value={code}>
                    {language}
                  </option>
                ))}
              </select>
            </div>
          </>
        )}
        {source === 'import' ? (
          <div className="field">
            <label htmlFor="new-project-file">File</label>
            <input id="new-project-file" type="file" accept=".xml,application/xml,text/xml" required onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
            {error?.field('data') && <p className="field-error">{error.field('data')}</p>}
          </div>
        ) : (
          <Field label="Start" type="date" required value={startDate} onChange={(e) => setStartDate(e.target.value)} error={error?.field('startDate')} />
        )}
        <Field
          label="Project name"
          placeholder={source === 'blank' ? 'Website relaunch' : (template?.name ?? 'As in the file')}
          required={source === 'blank'}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={error?.field('name')}
        />
        {source !== 'import' && <Field label="Time zone (optional)" placeholder="UTC" value={tz} onChange={(e) => setTz(e.target.value)} error={error?.field(source === 'blank' ? 'timeZone' : 'tz')} className="narrow-zone" />}
        <button type="submit" disabled={busy}>
          {source === 'import' ? 'Import' : 'Create'}
        </button>
      </form>
      {error && error.fields.length === 0 && <Alert>{error.message}</Alert>}
      {failure && <Alert>{failure}</Alert>}
      {template?.description && source === 'template' && <p className="hint">{template.description}</p>}
      {report && <ImportFindings {...report} onOpen={() => void navigate(`/projects/${report.project.id}`)} />}
    </section>
  );
}

/** What Microsoft Project's file held that the plan could not keep as it was. */
function ImportFindings({ project, report, onOpen }: { project: Project; report: ImportReport; onOpen: () => void }) {
  return (
    <div className="import-report" role="status">
      <p>
        <strong>{project.name}</strong> was imported. Some things in the file were changed or left out:
      </p>
      <ul>
        {report.dropped.map((item, index) => (
          <li key={`d${index}`}>Left out: {item.message}</li>
        ))}
        {report.approximated.map((item, index) => (
          <li key={`a${index}`}>Approximated: {item.message}</li>
        ))}
      </ul>
      <button type="button" onClick={onOpen}>
        Open the project
      </button>
    </div>
  );
}
