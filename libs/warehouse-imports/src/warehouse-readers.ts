import { OutboundPolicy } from '@analytics/outbound';
import { Injectable } from '@nestjs/common';
import { CredentialsCipher } from './credentials-cipher';
import { NoConnectorError, PostgresReader, WarehouseReader } from './warehouse-reader';
import { StoredSource } from './warehouse-imports.rows';

/** Opens a stored source for a run: its credentials unsealed, its host checked by the outbound policy. */
@Injectable()
export class WarehouseReaders {
  constructor(
    private readonly cipher: CredentialsCipher,
    private readonly outbound: OutboundPolicy,
  ) {}

  /** The reader for a source's type; the cloud warehouses have no connector here. */
  async open(source: StoredSource): Promise<WarehouseReader> {
    if (source.type !== 'postgres') throw new NoConnectorError(source.type);
    return PostgresReader.connect(await this.cipher.open(source.connectionSealed), this.outbound);
  }
}
