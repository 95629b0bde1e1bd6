import { ClickHouseClient, CommandParams, CommandResult, ExecParams } from '@clickhouse/client';
// The same package's own helpers (not re-exported at its top level): the text form it binds values
// in, the multipart body its query() sends, and its test for parameters too long for a URL.
import {
  buildMultipartBody,
  formatQueryParams,
  serializeQueryParamsForUrl,
} from '@clickhouse/client/dist/common/index';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';

/**
 * @clickhouse/client sends bound parameters in the URL (`param_<name>`), and a server refuses a
 * URL over http_max_uri_size (1 MiB): an export page's keys or a compliance expansion's ids can
 * pass it. Parameters over the client's URL budget (4 KiB) travel in the body instead, as the
 * multipart form ClickHouse's HTTP interface reads them from (`query` and `param_<name>` parts;
 * the server caps a part at http_max_field_value_size, which deploy/ raises). query() does it
 * itself (use_multipart_params_auto); exec() and command() are sent here as an exec whose body is
 * that form. The settings, database and query id stay in the URL.
 */
export function sendLargeParamsInBody(client: ClickHouseClient): ClickHouseClient {
  const exec = client.exec.bind(client);
  const asForm = (params: ExecParams): ExecParams & { values: Readable } => {
    const boundary = `----analytics-${randomUUID()}`;
    const parts: Record<string, string> = { query: params.query };
    for (const [name, value] of Object.entries(params.query_params ?? {}))
      parts[`param_${name}`] = formatQueryParams({ value });
    return {
      ...params,
      // An empty query keeps it out of the URL: the form's `query` part is the statement.
      query: '',
      query_params: undefined,
      values: Readable.from([Buffer.from(buildMultipartBody(parts, boundary))]),
      http_headers: { ...params.http_headers, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    };
  };
  const tooLongForUrl = (params: { query_params?: Record<string, unknown> }) =>
    params.query_params !== undefined && serializeQueryParamsForUrl(params.query_params) === null;

  client.exec = (params) => exec(tooLongForUrl(params) ? asForm(params) : params);
  const command = client.command.bind(client);
  client.command = async (params: CommandParams): Promise<CommandResult> => {
    if (!tooLongForUrl(params)) return command(params);
    // As command() does: the response has nothing to read; it is drained so the socket is reused.
    const { stream, query_id, summary, response_headers, http_status_code } = await exec(asForm(params));
    stream.resume();
    await finished(stream);
    return { query_id, summary, response_headers, http_status_code };
  };
  return client;
}
