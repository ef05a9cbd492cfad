import { DataTypes, Model, type DataType, type InferAttributes, type InferCreationAttributes } from 'sequelize';
import type { CreationOptional } from 'sequelize';

export type { CreationOptional, Sequelize } from 'sequelize';
export { DataTypes };

/**
 * A model whose attributes are the fields its class declares. Their columns are the snake_case of
 * their names: initModels binds every model `underscored`.
 */
export abstract class Row<M extends Model> extends Model<InferAttributes<M>, InferCreationAttributes<M>> {}

export const required = <T extends object>(type: DataType, more?: T) => ({ type, allowNull: false, ...more });
export const nullable = (type: DataType) => ({ type, allowNull: true });

/** A uuid key the model makes. */
export const uuidKey = { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 };
/** The row's place in insertion order, from the table's sequence. */
const seq = { type: DataTypes.BIGINT, autoIncrement: true, allowNull: false };

/** A row one account owns: its uuid key, its place in insertion order and the account. */
export abstract class AccountRow<M extends Model> extends Row<M> {
  declare id: CreationOptional<string>;
  declare seq: CreationOptional<string>;
  declare accountId: string;
}

/** The columns of AccountRow's fields (its key, place and account), first in each such model. */
export const accountKeys = { id: uuidKey, seq, accountId: required(DataTypes.UUID) };

/**
 * What every master data row (trade partner, location, product) has: the caller's id, the URN it is known
 * by, its name, and Sequelize's times (set on insert and on each update).
 */
export const masterDataKeys = {
  externalId: nullable(DataTypes.TEXT),
  urn: required(DataTypes.TEXT),
  name: required(DataTypes.TEXT),
  createdAt: required(DataTypes.DATE),
  updatedAt: required(DataTypes.DATE),
};

/** An account's location or product: the fields of masterDataKeys beside AccountRow's. */
export abstract class MasterDataRow<M extends Model> extends AccountRow<M> {
  declare externalId: string | null;
  declare urn: string;
  declare name: string;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
