import { DataTypes, Model, type DataType, type InferAttributes, type InferCreationAttributes } from 'sequelize';

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
export const seq = { type: DataTypes.BIGINT, autoIncrement: true, allowNull: false };
