import type { addressFromPayload, contactFromPayload, vesselFromPayload } from '../../domain/master-data';
import { DataTypes, MasterDataRow, accountKeys, masterDataKeys, nullable, required, type Sequelize } from './row';

export type Address = NonNullable<ReturnType<typeof addressFromPayload>>;
export type Contact = NonNullable<ReturnType<typeof contactFromPayload>>;
export type Vessel = NonNullable<ReturnType<typeof vesselFromPayload>>;

export class Location extends MasterDataRow<Location> {
  declare tradePartnerId: string;
  declare gln: string | null;
  declare duns: string | null;
  declare dunsPlus4: string | null;
  declare extension: string | null;
  declare captainsName: string | null;
  declare address: Address | null;
  declare contact: Contact | null;
  declare vessel: Vessel | null;
  declare foodFacilityRegistrationNumber: string | null;
  declare locationType: string | null;

  static initModel(sequelize: Sequelize): void {
    Location.init(
      {
        ...accountKeys,
        tradePartnerId: required(DataTypes.UUID),
        ...masterDataKeys,
        gln: nullable(DataTypes.TEXT),
        duns: nullable(DataTypes.TEXT),
        dunsPlus4: nullable(DataTypes.TEXT),
        extension: nullable(DataTypes.TEXT),
        captainsName: nullable(DataTypes.TEXT),
        address: nullable(DataTypes.JSONB),
        contact: nullable(DataTypes.JSONB),
        vessel: nullable(DataTypes.JSONB),
        foodFacilityRegistrationNumber: nullable(DataTypes.TEXT),
        locationType: nullable(DataTypes.TEXT),
      },
      { sequelize, tableName: 'locations' },
    );
  }
}
