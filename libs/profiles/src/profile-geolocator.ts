import { LocationHint, Properties } from '@analytics/profile-updates';
import { Injectable } from '@nestjs/common';

/**
 * The seam where geolocation plugs in: from `$ip` (or the request IP with `ip=1`) or
 * `$latitude`/`$longitude` to `$city`, `$region`, `$country_code`, `$timezone`. No GeoIP database
 * ships with the platform, so this default derives nothing; a deployment provides its own.
 */
@Injectable()
export class ProfileGeolocator {
  async locate(_hint: LocationHint): Promise<Properties | undefined> {
    return undefined;
  }
}
