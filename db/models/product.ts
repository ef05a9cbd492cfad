import { AccountRow, DataTypes, accountKeys, nullable, required, type CreationOptional, type Sequelize } from './row';

export interface MasterDataEntry {
  name: string;
  namespace: string;
  value: string;
}

export class Product extends AccountRow<Product> {
  declare externalId: string | null;
  declare urn: string;
  declare name: string;
  declare unitOfMeasure: string;
  /** NUMERIC comes back from pg as a string, exact. */
  declare unitQuantity: string | null;
  declare unitDescriptor: 'Cases' | 'Units' | 'Totes' | 'Pallets' | null;
  declare sharingPolicy: 'Open' | 'Restricted';
  declare identifierType: 'Lot' | 'Serial';
  declare gtin: string | null;
  declare plu: string | null;
  declare masterData: CreationOptional<MasterDataEntry[]>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): void {
    Product.init(
      {
        ...accountKeys,
        externalId: nullable(DataTypes.TEXT),
        urn: required(DataTypes.TEXT),
        name: required(DataTypes.TEXT),
        unitOfMeasure: required(DataTypes.TEXT),
        unitQuantity: nullable(DataTypes.DECIMAL),
        unitDescriptor: nullable(DataTypes.TEXT),
        sharingPolicy: required(DataTypes.TEXT),
        identifierType: required(DataTypes.TEXT),
        gtin: nullable(DataTypes.TEXT),
        plu: nullable(DataTypes.TEXT),
        masterData: required(DataTypes.JSONB, { defaultValue: [] }),
        createdAt: required(DataTypes.DATE),
        updatedAt: required(DataTypes.DATE),
      },
      { sequelize, tableName: 'products' },
    );
  }
}
