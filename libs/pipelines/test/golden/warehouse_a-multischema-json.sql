-- signed_up, window 2026-11-02T00:00:00.000Z to 2026-11-03T00:00:00.000Z
LOAD DATA OVERWRITE `analytics.signed_up_staging` (event STRING, properties JSON) FROM FILES (format = 'JSON', uris = ['gs://staging-bucket/7/signed_up/2026/11/02/data.json.gz']);
CREATE TABLE IF NOT EXISTS `analytics.signed_up` LIKE `analytics.signed_up_staging`;
MERGE `analytics.signed_up` T USING `analytics.signed_up_staging` S ON JSON_VALUE(T.properties, '$."$insert_id"') = JSON_VALUE(S.properties, '$."$insert_id"') AND JSON_VALUE(T.properties, '$.distinct_id') = JSON_VALUE(S.properties, '$.distinct_id') AND T.event = S.event AND TIMESTAMP_SECONDS(CAST(JSON_VALUE(T.properties, '$.time') AS INT64)) = TIMESTAMP_SECONDS(CAST(JSON_VALUE(S.properties, '$.time') AS INT64))
  WHEN NOT MATCHED THEN INSERT ROW
  WHEN NOT MATCHED BY SOURCE AND TIMESTAMP_SECONDS(CAST(JSON_VALUE(T.properties, '$.time') AS INT64)) >= TIMESTAMP '2026-11-02 00:00:00' AND TIMESTAMP_SECONDS(CAST(JSON_VALUE(T.properties, '$.time') AS INT64)) < TIMESTAMP '2026-11-03 00:00:00' THEN DELETE;

-- mp_mp_web_page_view, window 2026-11-02T00:00:00.000Z to 2026-11-03T00:00:00.000Z
LOAD DATA OVERWRITE `analytics.mp_mp_web_page_view_staging` (event STRING, properties JSON) FROM FILES (format = 'JSON', uris = ['gs://staging-bucket/7/mp_mp_web_page_view/2026/11/02/data.json.gz']);
CREATE TABLE IF NOT EXISTS `analytics.mp_mp_web_page_view` LIKE `analytics.mp_mp_web_page_view_staging`;
MERGE `analytics.mp_mp_web_page_view` T USING `analytics.mp_mp_web_page_view_staging` S ON JSON_VALUE(T.properties, '$."$insert_id"') = JSON_VALUE(S.properties, '$."$insert_id"') AND JSON_VALUE(T.properties, '$.distinct_id') = JSON_VALUE(S.properties, '$.distinct_id') AND T.event = S.event AND TIMESTAMP_SECONDS(CAST(JSON_VALUE(T.properties, '$.time') AS INT64)) = TIMESTAMP_SECONDS(CAST(JSON_VALUE(S.properties, '$.time') AS INT64))
  WHEN NOT MATCHED THEN INSERT ROW
  WHEN NOT MATCHED BY SOURCE AND TIMESTAMP_SECONDS(CAST(JSON_VALUE(T.properties, '$.time') AS INT64)) >= TIMESTAMP '2026-11-02 00:00:00' AND TIMESTAMP_SECONDS(CAST(JSON_VALUE(T.properties, '$.time') AS INT64)) < TIMESTAMP '2026-11-03 00:00:00' THEN DELETE;
