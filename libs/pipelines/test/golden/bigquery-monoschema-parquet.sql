-- mp_master_event, window 2026-11-02T00:00:00.000Z to 2026-11-03T00:00:00.000Z
LOAD DATA OVERWRITE `acme.mixpanel_7.mp_master_event_staging` FROM FILES (format = 'PARQUET', uris = ['gs://staging-bucket/mp/7/mp_master_event/2026/11/02/data.parquet']);
CREATE TABLE IF NOT EXISTS `acme.mixpanel_7.mp_master_event` LIKE `acme.mixpanel_7.mp_master_event_staging`;
MERGE `acme.mixpanel_7.mp_master_event` T USING `acme.mixpanel_7.mp_master_event_staging` S ON T.insert_id = S.insert_id AND T.distinct_id = S.distinct_id AND T.time = S.time AND T.mp_event_name = S.mp_event_name
  WHEN NOT MATCHED THEN INSERT ROW
  WHEN NOT MATCHED BY SOURCE AND T.time >= TIMESTAMP '2026-11-02 00:00:00' AND T.time < TIMESTAMP '2026-11-03 00:00:00' THEN DELETE;
