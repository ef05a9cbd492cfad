import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export interface Address {
  city: string | null;
  state: string | null;
  country: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  postalCode: string | null;
  geoCoordinates: { latitude: number; longitude: number } | null;
  displayAddress: string | null;
}

export interface Contact {
  name: string | null;
  phone: string | null;
  email: string | null;
}

export interface Vessel {
  vesselName: string | null;
  vesselFlagState: string | null;
  imoNumber: string | null;
  vesselSatelliteTrackingAuthority: string | null;
  vesselPublicRegistryLink: string | null;
  vesselRegistration: string | null;
  unloadingPort: string | null;
}

export class Location extends Model<InferAttributes<Location>, InferCreationAttributes<Location>> {
  declare id: CreationOptional<string>;
  declare seq: CreationOptional<string>;
  declare accountId: string;
  declare tradePartnerId: string;
  declare externalId: string | null;
  declare urn: string;
  declare name: string;
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
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): void {
    Location.init(
      {
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        seq: { type: DataTypes.BIGINT, autoIncrement: true, allowNull: false },
        accountId: { type: DataTypes.UUID, allowNull: false, field: 'account_id' },
        tradePartnerId: { type: DataTypes.UUID, allowNull: false, field: 'trade_partner_id' },
        externalId: { type: DataTypes.TEXT, allowNull: true, field: 'external_id' },
        urn: { type: DataTypes.TEXT, allowNull: false },
        name: { type: DataTypes.TEXT, allowNull: false },
        gln: { type: DataTypes.TEXT, allowNull: true },
        duns: { type: DataTypes.TEXT, allowNull: true },
        dunsPlus4: { type: DataTypes.TEXT, allowNull: true, field: 'duns_plus4' },
        extension: { type: DataTypes.TEXT, allowNull: true },
        captainsName: { type: DataTypes.TEXT, allowNull: true, field: 'captains_name' },
        address: { type: DataTypes.JSONB, allowNull: true },
        contact: { type: DataTypes.JSONB, allowNull: true },
        vessel: { type: DataTypes.JSONB, allowNull: true },
        foodFacilityRegistrationNumber: {
          type: DataTypes.TEXT,
          allowNull: true,
          field: 'food_facility_registration_number',
        },
        locationType: { type: DataTypes.TEXT, allowNull: true, field: 'location_type' },
        createdAt: { type: DataTypes.DATE, allowNull: false, field: 'created_at' },
        updatedAt: { type: DataTypes.DATE, allowNull: false, field: 'updated_at' },
      },
      { sequelize, tableName: 'locations' },
    );
  }
}
