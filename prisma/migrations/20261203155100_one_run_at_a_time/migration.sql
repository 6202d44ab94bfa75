-- AlterTable
ALTER TABLE "executions" ADD COLUMN     "coalesce_until" TIMESTAMPTZ(3),
ADD COLUMN     "serial_key" TEXT;

-- CreateTable
CREATE TABLE "execution_batch_messages" (
    "execution_id" UUID NOT NULL,
    "message_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "execution_batch_messages_pkey" PRIMARY KEY ("execution_id","message_id")
);

-- CreateIndex
CREATE INDEX "execution_batch_messages_message_id_idx" ON "execution_batch_messages"("message_id");

-- CreateIndex
CREATE INDEX "executions_workflow_id_serial_key_seq_idx" ON "executions"("workflow_id", "serial_key", "seq");

-- AddForeignKey
ALTER TABLE "execution_batch_messages" ADD CONSTRAINT "execution_batch_messages_execution_id_fkey" FOREIGN KEY ("execution_id") REFERENCES "executions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
