import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export interface MasterDataEntry {
  name: string;
  namespace: string;
  value: string;
}

export class Product extends Model<InferAttributes<Product>, InferCreationAttributes<Product>> {
  declare id: CreationOptional<string>;
  declare seq: CreationOptional<string>;
  declare accountId: string;
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
        id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
        seq: { type: DataTypes.BIGINT, autoIncrement: true, allowNull: false },
        accountId: { type: DataTypes.UUID, allowNull: false, field: 'account_id' },
        externalId: { type: DataTypes.TEXT, allowNull: true, field: 'external_id' },
        urn: { type: DataTypes.TEXT, allowNull: false },
        name: { type: DataTypes.TEXT, allowNull: false },
        unitOfMeasure: { type: DataTypes.TEXT, allowNull: false, field: 'unit_of_measure' },
        unitQuantity: { type: DataTypes.DECIMAL, allowNull: true, field: 'unit_quantity' },
        unitDescriptor: { type: DataTypes.TEXT, allowNull: true, field: 'unit_descriptor' },
        sharingPolicy: { type: DataTypes.TEXT, allowNull: false, field: 'sharing_policy' },
        identifierType: { type: DataTypes.TEXT, allowNull: false, field: 'identifier_type' },
        gtin: { type: DataTypes.TEXT, allowNull: true },
        plu: { type: DataTypes.TEXT, allowNull: true },
        masterData: { type: DataTypes.JSONB, allowNull: false, defaultValue: [], field: 'master_data' },
        createdAt: { type: DataTypes.DATE, allowNull: false, field: 'created_at' },
        updatedAt: { type: DataTypes.DATE, allowNull: false, field: 'updated_at' },
      },
      { sequelize, tableName: 'products' },
    );
  }
}
