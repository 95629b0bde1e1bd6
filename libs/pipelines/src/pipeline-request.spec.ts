import { cleanEventName } from './pipeline-definition';
import { parseCreatePipeline } from './pipeline-request';

const S3 = { type: 's3-raw', s3_bucket: 'my-bucket', s3_region: 'us-east-1', from_date: '2026-11-01' };

describe('create pipeline fields', () => {
  it('names pipelines as the real API: [trial-]<source>-<frequency>-<type>-<schema>', () => {
    expect(parseCreatePipeline(S3, 1, '2026-11-24').definitions[0].name).toBe('events-daily-s3-raw-monoschema');
    const trial = parseCreatePipeline(
      { ...S3, trial: 'true', data_source: 'people', frequency: 'hourly', schema_type: 'multischema' },
      1,
      '2026-11-24',
    ).definitions[0];
    expect(trial.name).toBe('trial-people-hourly-s3-raw-multischema');
    expect(trial.toDate).toBe('2026-11-30');
  });

  it('a trial without from_date: events and people, daily, without sync, 30 days from yesterday (the real API)', () => {
    const gcs = {
      type: 'gcs-raw',
      trial: 'true',
      gcs_bucket: 'trial-bucket',
      gcs_region: 'us-central1',
      s3_access_key_id: 'GOOG1',
      s3_secret_access_key: 'x1x',
    };
    const { definitions } = parseCreatePipeline(gcs, 1, '2026-11-24');
    expect(definitions.map((d) => [d.name, d.dataSource, d.frequency, d.sync, d.fromDate, d.toDate])).toEqual([
      ['trial-events-daily-gcs-raw-monoschema', 'events', 'daily', false, '2026-11-23', '2026-12-22'],
      ['trial-people-daily-gcs-raw-monoschema', 'people', 'daily', false, '2026-11-23', '2026-12-22'],
    ]);
    // Each default gives way to the request's own field.
    expect(
      parseCreatePipeline(
        { ...gcs, data_source: 'events', sync: 'true', from_date: '2026-11-01', to_date: '2026-11-05' },
        1,
        '2026-11-24',
      ).definitions,
    ).toEqual([
      expect.objectContaining({
        name: 'trial-events-daily-gcs-raw-monoschema',
        sync: true,
        fromDate: '2026-11-01',
        toDate: '2026-11-05',
      }),
    ]);
    expect(() => parseCreatePipeline({ ...gcs, to_date: '2026-11-01' }, 1, '2026-11-24')).toThrow(
      /^to_date: 2026-11-01 is before from_date 2026-11-23/,
    );
  });

  it('defaults as the spec: monoschema, events, daily, sync on, json, continuous', () => {
    expect(parseCreatePipeline(S3, 1, '2026-11-24').definitions[0]).toMatchObject({
      schemaType: 'monoschema',
      dataSource: 'events',
      frequency: 'daily',
      sync: true,
      dataFormat: 'json',
      toDate: undefined,
    });
  });

  it('keeps the secret key out of the definition', () => {
    const { definitions, secret } = parseCreatePipeline(
      { ...S3, s3_access_key_id: 'AKIA1', s3_secret_access_key: 'shh-secret' },
      1,
      '2026-11-24',
    );
    expect(secret).toBe('shh-secret');
    expect(JSON.stringify(definitions)).not.toContain('shh-secret');
  });

  it('GCS: the XML API endpoint, path style, HMAC keys required', () => {
    expect(() =>
      parseCreatePipeline({ type: 'gcs-raw', gcs_bucket: 'g-bucket', from_date: '2026-11-01' }, 1, '2026-11-24'),
    ).toThrow(/^s3_access_key_id: is required for gcs-raw/);
    const gcs = parseCreatePipeline(
      {
        type: 'gcs-raw',
        gcs_bucket: 'g-bucket',
        from_date: '2026-11-01',
        s3_access_key_id: 'GOOG1',
        s3_secret_access_key: 'x1x',
      },
      1,
      '2026-11-24',
    ).definitions[0];
    expect(gcs.destination).toMatchObject({ endpoint: 'https://storage.googleapis.com', forcePathStyle: true });
  });

  it('cleans event names as the real API', () => {
    expect(['Signed Up', '$mp_web_page_view', 'Purchase!', 'a.b-c', '$'].map(cleanEventName)).toEqual([
      'signed_up',
      'mp_mp_web_page_view',
      'purchase_',
      'a_b_c',
      'mp_',
    ]);
  });
});
