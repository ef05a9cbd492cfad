import type { CreationOptional } from 'sequelize';
import { DataTypes, MasterDataRow, accountKeys, masterDataKeys, nullable, required, type Sequelize } from './row';

export interface MasterDataEntry {
  name: string;
  namespace: string;
  value: string;
}

export class Product extends MasterDataRow<Product> {
  declare unitOfMeasure: string;
  /** NUMERIC comes back from pg as a string, exact. */
  declare unitQuantity: string | null;
  declare unitDescriptor: 'Cases' | 'Units' | 'Totes' | 'Pallets' | null;
  declare sharingPolicy: 'Open' | 'Restricted';
  declare identifierType: 'Lot' | 'Serial';
  declare gtin: string | null;
  declare plu: string | null;
  declare masterData: CreationOptional<MasterDataEntry[]>;

  static initModel(sequelize: Sequelize): void {
    Product.init(
      {
        ...accountKeys,
        ...masterDataKeys,
        unitOfMeasure: required(DataTypes.TEXT),
        unitQuantity: nullable(DataTypes.DECIMAL),
        unitDescriptor: nullable(DataTypes.TEXT),
        sharingPolicy: required(DataTypes.TEXT),
        identifierType: required(DataTypes.TEXT),
        gtin: nullable(DataTypes.TEXT),
        plu: nullable(DataTypes.TEXT),
        masterData: required(DataTypes.JSONB, { defaultValue: [] }),
      },
      { sequelize, tableName: 'products' },
    );
  }
}
