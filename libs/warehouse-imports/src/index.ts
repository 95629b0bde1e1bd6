export { WarehouseImportsModule, WarehouseImportsWorkerModule } from './warehouse-imports.module';
