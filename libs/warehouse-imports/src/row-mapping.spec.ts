import { eventTime, rowInsertId, rowToEvent, rowToProfileUpdate } from './row-mapping';

const stamp = { importId: 12, warehouseType: 'postgres' };
const mapping = {
  time_column_name: 'ts',
  event_column_name: 'kind',
  user_column_name: 'user_id',
  device_column_name: 'device',
  json_properties_column_name: 'props',
  insert_time_column_name: 'inserted_at',
};

describe('row mapping', () => {
  const row = {
    kind: 'Ordered',
    ts: new Date('2026-03-01T10:00:00Z'),
    user_id: 'u1',
    device: 'd1',
    props: { plan: 'pro', nested: { a: 1 } },
    amount: 30,
    inserted_at: new Date('2026-03-01T10:00:05Z'),
  };

  it('maps a row to an /import event: names, time, ids, the JSON column flattened, every other column, the stamp', () => {
    expect(rowToEvent(row, mapping, stamp)).toEqual({
      event: 'Ordered',
      properties: {
        time: Date.parse('2026-03-01T10:00:00Z'),
        distinct_id: 'u1',
        $device_id: 'd1',
        $insert_id: rowInsertId(12, row),
        plan: 'pro',
        nested: { a: 1 },
        amount: 30,
        inserted_at: '2026-03-01T10:00:05.000Z',
        $warehouse_import_id: '12',
        $warehouse_type: 'postgres',
      },
    });
  });

  it('derives $insert_id from the import and the whole row', () => {
    expect(rowInsertId(12, row)).toMatch(/^[0-9a-f]{32}$/);
    expect(rowInsertId(12, { ...row })).toBe(rowInsertId(12, row));
    expect(rowInsertId(13, row)).not.toBe(rowInsertId(12, row));
    expect(rowInsertId(12, { ...row, amount: 31 })).not.toBe(rowInsertId(12, row));
  });

  it('falls back to the device as distinct id, and leaves a missing time for the intake to refuse', () => {
    const event = rowToEvent({ ...row, user_id: null, ts: null }, mapping, stamp) as {
      properties: Record<string, unknown>;
    };
    expect(event.properties.distinct_id).toBe('$device:d1');
    expect(event.properties).not.toHaveProperty('time');
  });

  it('reads times as dates, epoch numbers or ISO text (UTC when no zone)', () => {
    expect(eventTime('2026-03-01 10:00:00')).toBe(Date.parse('2026-03-01T10:00:00Z'));
    expect(eventTime('1772359200')).toBe(1772359200);
    expect(eventTime('not a time')).toBeUndefined();
  });

  it('maps people and group rows to $set updates', () => {
    expect(rowToProfileUpdate({ user_id: 'u1', plan: 'pro' }, { user_column_name: 'user_id' }, stamp, 'tok')).toEqual({
      $token: 'tok',
      $distinct_id: 'u1',
      $ignore_time: true,
      $set: { plan: 'pro', $warehouse_import_id: '12', $warehouse_type: 'postgres' },
    });
    expect(
      rowToProfileUpdate(
        { company_id: 7, size: 40 },
        { group_key: 'company', group_id_column_name: 'company_id' },
        stamp,
        'tok',
      ),
    ).toEqual({
      $token: 'tok',
      $group_key: 'company',
      $group_id: '7',
      $set: { size: 40, $warehouse_import_id: '12', $warehouse_type: 'postgres' },
    });
  });
});
